import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// GPX 1.1 documents: one `trk` per trip, one `trkpt` per delivered position with `ele`, `time`
/// and `fix` where known.
public enum GPXWriter {
    public static func document(_ trips: [(Int64, [Store.PointRow])]) -> String {
        var s = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="gpstrackd" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">

            """
        for (id, points) in trips {
            s += "  <trk>\n    <name>gpstrackd trip \(id)</name>\n    <trkseg>\n"
            for p in points {
                s += "      <trkpt lat=\"\(p.latitude)\" lon=\"\(p.longitude)\">"
                if p.altitude.isFinite { s += "<ele>\(ReplyEncoder.number(p.altitude, decimals: 2))</ele>" }
                s += "<time>\(Timestamp.iso8601(p.time))</time>"
                if p.mode == 2 { s += "<fix>2d</fix>" } else if p.mode == 3 { s += "<fix>3d</fix>" }
                s += "</trkpt>\n"
            }
            s += "    </trkseg>\n  </trk>\n"
        }
        return s + "</gpx>\n"
    }
}
