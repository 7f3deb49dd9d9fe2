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
        /// The inputs, where configured: Traccar's `ignition`, `batt` (%), `charge` (the external
        /// power on) and `power` (volts).
        var ignition: Bool? = nil
        var batteryPct: Int? = nil
        var charge: Bool? = nil
        var powerV: Double? = nil
    }

    /// The query form (`id=…&timestamp=…&lat=…`), which every Traccar version reads: speed in
    /// knots, time in Unix seconds, accuracy in whole metres (never 0).
    static func query(time: Double, at: Coordinate, fix: Fix?, _ x: Extras) -> String {
        var items: [(String, String)] = [
            ("id", x.deviceID), ("timestamp", String(Int(clamping: time, rounding: .towardZero))),
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
        // Traccar's decoder reads `batt` and `charge` by name and any other key as an attribute
        // of that name, a number or `true`/`false` as such (`ignition`, `power`).
        if let on = x.ignition { items.append(("ignition", on ? "true" : "false")) }
        if let pct = x.batteryPct { items.append(("batt", String(pct))) }
        if let on = x.charge { items.append(("charge", on ? "true" : "false")) }
        if let v = x.powerV, v.isFinite { items.append(("power", String(v.rounded(decimals: 2)))) }
        if let alarm = x.alarm { items.append(("alarm", alarm)) }
        return items.map { "\($0.0)=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    /// The JSON form (Traccar 6.7+, the Traccar Client's): speed in m/s, time in ISO 8601.
    static func json(time: Double, at: Coordinate, fix: Fix?, _ x: Extras) -> String {
        func finite(_ v: Double?, _ decimals: Int) -> Double? {
            v.flatMap { $0.isFinite ? $0.rounded(decimals: decimals) : nil }
        }
        let coords = Body.Coords(
            latitude: at.latitude, longitude: at.longitude,
            accuracy: OwnTracks.accuracy(fix?.horizontalError, assumed: x.assumedErrorM),
            speed: finite(fix?.speed, 3), heading: finite(fix?.track, 1), altitude: finite(fix?.altitude, 1))
        // Traccar 6.7+ reads `extras.alarm` as the alarm and, since traccar#5915, every other
        // extra as an attribute of its name (`event` is the Traccar Client's, kept for it).
        let extras = Body.Extras(
            hdop: finite(fix?.hdop, 2), sat: fix?.satellitesUsed, alarm: x.alarm, ignition: x.ignition,
            power: finite(x.powerV, 2))
        // The Traccar Client's battery: `level` a fraction (Traccar keeps it ×100), `is_charging`.
        let battery =
            x.batteryPct == nil && x.charge == nil
            ? nil : Body.Battery(level: x.batteryPct.map { Double($0) / 100 }, isCharging: x.charge)
        let location = Body.Location(
            timestamp: Timestamp.iso8601(time), coords: coords, isMoving: x.moving,
            odometer: x.odometerM.rounded(decimals: 1), event: x.alarm, battery: battery,
            extras: extras.isEmpty ? nil : extras)
        return ReplyEncoder.encode(Body(deviceID: x.deviceID, location: location))
    }

    /// The JSON form's body: what a fix lacks is left out, not null.
    struct Body: Encodable {
        struct Coords: Encodable {
            var latitude: Double
            var longitude: Double
            var accuracy: Int
            @Omitted var speed: Double?
            @Omitted var heading: Double?
            @Omitted var altitude: Double?
        }
        struct Extras: Codable, Sendable {
            @Omitted var hdop: Double?
            @Omitted var sat: Int?
            @Omitted var alarm: String?
            @Omitted var ignition: Bool?
            @Omitted var power: Double?

            var isEmpty: Bool { hdop == nil && sat == nil && alarm == nil && ignition == nil && power == nil }
        }
        struct Battery: Codable, Sendable {
            @Omitted var level: Double?
            @Omitted var isCharging: Bool?

            enum CodingKeys: String, CodingKey {
                case level
                case isCharging = "is_charging"
            }
        }
        struct Location: Encodable {
            var timestamp: String
            var coords: Coords
            @Omitted var isMoving: Bool?
            var odometer: Double
            @Omitted var event: String?
            @Omitted var battery: Battery?
            @Omitted var extras: Extras?

            enum CodingKeys: String, CodingKey {
                case timestamp, coords
                case isMoving = "is_moving"
                case odometer, event, battery, extras
            }
        }
        var deviceID: String
        var location: Location

        enum CodingKeys: String, CodingKey {
            case deviceID = "device_id"
            case location
        }
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
