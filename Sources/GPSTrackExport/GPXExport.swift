import GPSTrackProtocol

/// GPX 1.1: the stops and events as waypoints (`type` stop or the event's kind), then one
/// track whose segments break where the track was not recorded (`ExportPage.gapS`, another
/// odometer run). Each point keeps `ele`, `time`, `fix`, `sat` and `hdop`; speed, course and eph (none of which
/// GPX 1.1 has) go in the `gpstrack` extension namespace (`GPXExport.namespace`).
public struct GPXExport: ExportWriter {
    /// The namespace of the extension elements `speed` (m/s), `course` (degrees) and `eph` (m).
    public static let namespace = "urn:x-gpstrackd:gpx:1"
    let title: String
    let emit: (String) -> Void
    private var open = false

    public init(title: String, emit: @escaping (String) -> Void) {
        self.title = title
        self.emit = emit
    }

    public mutating func begin(_ context: ExportContext) {
        let b = context.bounds
        var s = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="gpstrackd" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpstrack="\(Self.namespace)" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
              <metadata><name>\(Text.xml(title))</name>\
            <bounds minlat="\(Text.decimal(b.minLat, 7))" minlon="\(Text.decimal(b.minLon, 7))" \
            maxlat="\(Text.decimal(b.maxLat, 7))" maxlon="\(Text.decimal(b.maxLon, 7))"/></metadata>

            """
        for (i, stop) in context.stops.enumerated() {
            let place = stop.at.fences.isEmpty ? "" : " at " + stop.at.fences.joined(separator: ", ")
            let until = stop.departure.map { " to \($0)" } ?? " (still there)"
            s += Self.waypoint(
                lat: stop.at.lat, lon: stop.at.lon, time: stop.arrival, name: "Stop \(i + 1)\(place)",
                desc: "from \(stop.arrival)\(until)", type: "stop")
        }
        for e in context.events {
            let name = e.kind + (e.fence.map { " \(e.name ?? $0)" } ?? "")
            let desc = e.radiusM.map { "radius \(Text.decimal($0, 1)) m" }
            s += Self.waypoint(lat: e.lat, lon: e.lon, time: e.time, name: name, desc: desc, type: e.kind)
        }
        emit(s + "  <trk>\n    <name>\(Text.xml(title))</name>\n")
    }

    static func waypoint(lat: Double, lon: Double, time: String, name: String, desc: String?, type: String) -> String {
        var s = "  <wpt lat=\"\(Text.decimal(lat, 7))\" lon=\"\(Text.decimal(lon, 7))\"><time>\(Text.xml(time))</time>"
        s += "<name>\(Text.xml(name))</name>"
        if let desc { s += "<desc>\(Text.xml(desc))</desc>" }
        return s + "<type>\(Text.xml(type))</type></wpt>\n"
    }

    public mutating func point(_ p: ExportPoint) {
        var s = ""
        if p.segment || !open {
            if open { s += "    </trkseg>\n" }
            s += "    <trkseg>\n"
            open = true
        }
        s += "      <trkpt lat=\"\(Text.decimal(p.lat, 7))\" lon=\"\(Text.decimal(p.lon, 7))\">"
        if let alt = p.alt { s += "<ele>\(Text.decimal(alt, 2))</ele>" }
        s += "<time>\(Timestamp.iso8601(p.time))</time>"
        if p.mode == 2 { s += "<fix>2d</fix>" } else if p.mode == 3 { s += "<fix>3d</fix>" }
        // GPX 1.1's order: fix, sat, hdop.
        if let n = p.sat { s += "<sat>\(n)</sat>" }
        if let h = p.hdop { s += "<hdop>\(Text.decimal(h, 2))</hdop>" }
        var ext = ""
        if let v = p.speedMps { ext += "<gpstrack:speed>\(Text.decimal(v, 3))</gpstrack:speed>" }
        if let c = p.courseDeg { ext += "<gpstrack:course>\(Text.decimal(c, 1))</gpstrack:course>" }
        if let e = p.eph { ext += "<gpstrack:eph>\(Text.decimal(e, 2))</gpstrack:eph>" }
        if !ext.isEmpty { s += "<extensions>\(ext)</extensions>" }
        emit(s + "</trkpt>\n")
    }

    public mutating func finish() {
        emit((open ? "    </trkseg>\n" : "") + "  </trk>\n</gpx>\n")
    }
}
