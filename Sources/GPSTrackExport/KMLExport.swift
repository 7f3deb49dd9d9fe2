import GPSTrackProtocol

/// KML 2.2: a folder of trips, each a placemark with its TimeSpan, its figures as
/// ExtendedData and a LineString written as its points come; a folder of stops and one of
/// events, each a placemark with its time (TimeSpan for a stop, TimeStamp for an event).
public struct KMLExport: ExportWriter {
    let title: String
    let emit: (String) -> Void
    private var context: ExportContext?
    private var trips: [AutoTrip] = []
    private var spans = TripCursor([], last: 0)
    private var open: Int?
    private var written = 0

    public init(title: String, emit: @escaping (String) -> Void) {
        self.title = title
        self.emit = emit
    }

    public mutating func begin(_ context: ExportContext) {
        self.context = context
        trips = TrackSpans.trips(context)
        spans = TripCursor(trips, last: context.bounds.last)
        emit(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
            <Document>
              <name>\(Text.xml(title))</name>
              <Style id="trip"><LineStyle><color>ff1c19d7</color><width>3</width></LineStyle></Style>
              <Style id="stop"><IconStyle><color>ff000000</color></IconStyle></Style>
              <Folder>
                <name>Trips</name>

            """)
    }

    public mutating func point(_ p: ExportPoint) {
        guard let i = spans.trip(at: p.time) else { return }
        if open != i {
            close()
            while written < i {
                emit(header(written) + end(written) + "</coordinates></LineString></Placemark>\n")
                written += 1
            }
            emit(header(i))
            open = i
            written = i + 1
        }
        emit("\(Text.decimal(p.lon, 7)),\(Text.decimal(p.lat, 7))\(p.alt.map { "," + Text.decimal($0, 2) } ?? "") ")
    }

    private func header(_ i: Int) -> String {
        let t = trips[i]
        var data: [(String, String)] = [
            ("id", String(t.id)), ("state", t.state), ("from", t.from.fences.joined(separator: ", ")),
            ("to", t.to?.fences.joined(separator: ", ") ?? ""), ("distance_m", Text.decimal(t.traveledM, 2)),
        ]
        for (k, v) in [
            ("duration_s", t.durationS), ("moving_s", t.movingS), ("max_speed_mps", t.maxSpeedMps),
            ("avg_speed_mps", t.avgSpeedMps),
        ] {
            if let v { data.append((k, Text.decimal(v, 2))) }
        }
        let extended = data.map { "<Data name=\"\($0.0)\"><value>\(Text.xml($0.1))</value></Data>" }.joined()
        let name = t.state == "track" ? "Track" : "Trip \(t.id)"
        return "    <Placemark><name>\(name)</name><TimeSpan><begin>\(t.startedAt)</begin>"
            + (t.endedAt.map { "<end>\($0)</end>" } ?? "") + "</TimeSpan><styleUrl>#trip</styleUrl>"
            + "<ExtendedData>\(extended)</ExtendedData><LineString><tessellate>1</tessellate><coordinates>"
    }

    /// A trip's from and to places: the line of a trip without a stored point in range, and
    /// the end of a line of one point (a LineString has two at least).
    private func end(_ i: Int) -> String {
        let t = trips[i]
        let to = t.to ?? t.from
        return
            "\(Text.decimal(t.from.lon, 7)),\(Text.decimal(t.from.lat, 7)) \(Text.decimal(to.lon, 7)),\(Text.decimal(to.lat, 7))"
    }

    private mutating func close() {
        guard let i = open else { return }
        let t = trips[i]
        let to = t.to ?? t.from
        // Always the end place once more: harmless on a long line, needed on a one-point one.
        emit("\(Text.decimal(to.lon, 7)),\(Text.decimal(to.lat, 7))</coordinates></LineString></Placemark>\n")
        open = nil
    }

    public mutating func finish() {
        guard let context else { return }
        close()
        while written < trips.count {
            emit(header(written) + end(written) + "</coordinates></LineString></Placemark>\n")
            written += 1
        }
        var s = "  </Folder>\n  <Folder>\n    <name>Stops</name>\n"
        for (n, stop) in context.stops.enumerated() {
            let fences = stop.at.fences.joined(separator: ", ")
            s +=
                "    <Placemark><name>Stop \(n + 1)\(fences.isEmpty ? "" : ": " + Text.xml(fences))</name>"
                + "<TimeSpan><begin>\(stop.arrival)</begin>\(stop.departure.map { "<end>\($0)</end>" } ?? "")</TimeSpan>"
                + "<styleUrl>#stop</styleUrl><ExtendedData><Data name=\"kind\"><value>stop</value></Data>"
                + "<Data name=\"fences\"><value>\(Text.xml(fences))</value></Data></ExtendedData>"
                + "<Point><coordinates>\(Text.decimal(stop.at.lon, 7)),\(Text.decimal(stop.at.lat, 7))</coordinates></Point></Placemark>\n"
        }
        s += "  </Folder>\n  <Folder>\n    <name>Events</name>\n"
        for e in context.events {
            s +=
                "    <Placemark><name>\(Text.xml(e.kind + (e.fence.map { " " + (e.name ?? $0) } ?? "")))</name>"
                + "<TimeStamp><when>\(e.time)</when></TimeStamp><ExtendedData><Data name=\"kind\"><value>\(Text.xml(e.kind))</value></Data>"
                + "<Data name=\"fence\"><value>\(Text.xml(e.fence ?? ""))</value></Data></ExtendedData>"
                + "<Point><coordinates>\(Text.decimal(e.lon, 7)),\(Text.decimal(e.lat, 7))</coordinates></Point></Placemark>\n"
        }
        emit(s + "  </Folder>\n</Document>\n</kml>\n")
    }
}
