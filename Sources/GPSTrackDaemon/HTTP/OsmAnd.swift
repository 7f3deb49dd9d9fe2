import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// Traccar's OsmAnd protocol (its `OsmAndProtocolDecoder`): one position per request. Pure: the
/// caller gives every value.
enum OsmAnd {
    /// What one position carries besides the fix.
    struct Extras {
        var deviceID: String
        /// The trip detector's motion (nil with `trip_mode = manual`).
        var moving: Bool?
        /// Metres on the odometer.
        var odometerM: Double
        /// Traccar's alarm name (`tow`, `overspeed`), on the events Traccar knows.
        var alarm: String?
        /// The error estimate when the receiver gives none.
        var assumedErrorM: Double
    }

    /// The query form (`id=…&timestamp=…&lat=…`), which every Traccar version reads: speed in
    /// knots, time in Unix seconds, accuracy in whole metres (never 0).
    static func query(time: Double, at: Coordinate, fix: Fix?, _ x: Extras) -> String {
        var items: [(String, String)] = [
            ("id", x.deviceID), ("timestamp", String(Int(time))),
            ("lat", String(at.latitude)), ("lon", String(at.longitude)),
        ]
        if let fix {
            if fix.speed.isFinite { items.append(("speed", String((fix.speed * 3600 / 1852).rounded(decimals: 3)))) }
            if fix.track.isFinite { items.append(("bearing", String(fix.track.rounded(decimals: 1)))) }
            if fix.altitude.isFinite { items.append(("altitude", String(fix.altitude.rounded(decimals: 1)))) }
            // Traccar keeps `hdop` as its hdop attribute and `sat` (an unknown key) as `sat`,
            // its satellites attribute.
            if fix.hdop.isFinite { items.append(("hdop", String(fix.hdop.rounded(decimals: 2)))) }
            if let n = fix.satellitesUsed { items.append(("sat", String(n))) }
        }
        items.append(("accuracy", String(OwnTracks.accuracy(fix?.horizontalError, assumed: x.assumedErrorM))))
        if let moving = x.moving { items.append(("motion", moving ? "true" : "false")) }
        items.append(("odometer", String(x.odometerM.rounded(decimals: 1))))
        if let alarm = x.alarm { items.append(("alarm", alarm)) }
        return items.map { "\($0.0)=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    /// The JSON form (Traccar 6.7+, the Traccar Client's): speed in m/s, time in ISO 8601.
    static func json(time: Double, at: Coordinate, fix: Fix?, _ x: Extras) -> String {
        var coords = JSONObject()
        coords.add("latitude", at.latitude)
        coords.add("longitude", at.longitude)
        coords.add("accuracy", OwnTracks.accuracy(fix?.horizontalError, assumed: x.assumedErrorM))
        if let fix {
            if fix.speed.isFinite { coords.add("speed", fix.speed.rounded(decimals: 3)) }
            if fix.track.isFinite { coords.add("heading", fix.track.rounded(decimals: 1)) }
            if fix.altitude.isFinite { coords.add("altitude", fix.altitude.rounded(decimals: 1)) }
        }
        var location = JSONObject()
        location.add("timestamp", Timestamp.iso8601(time))
        location.add("coords", raw: coords.encoded)
        if let moving = x.moving { location.add("is_moving", moving) }
        location.add("odometer", x.odometerM.rounded(decimals: 1))
        // Traccar 6.7+ reads `extras.alarm` as the alarm and, since traccar#5915, every other
        // extra as an attribute of its name (`event` is the Traccar Client's, kept for it).
        var extras = JSONObject()
        var any = false
        if let fix, fix.hdop.isFinite {
            extras.add("hdop", fix.hdop.rounded(decimals: 2))
            any = true
        }
        if let n = fix?.satellitesUsed {
            extras.add("sat", n)
            any = true
        }
        if let alarm = x.alarm {
            location.add("event", alarm)
            extras.add("alarm", alarm)
            any = true
        }
        if any { location.add("extras", raw: extras.encoded) }
        var o = JSONObject()
        o.add("device_id", x.deviceID)
        o.add("location", raw: location.encoded)
        return o.encoded
    }

    /// RFC 3986's unreserved characters as they are, every other byte as %XX.
    static func percentEncoded(_ s: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
