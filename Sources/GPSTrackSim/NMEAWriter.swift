import GPSTrackCore
import GPSTrackProtocol

/// Writes fixes as NMEA 0183 sentences (GGA, GSA, RMC per epoch, GST with the error estimate)
/// for gpsfake to feed a real gpsd. A fix with `satellitesUsed` gets GSV sentences too, before
/// a GSA naming that many: gpsd then reports the epoch's SKY (uSat, hdop) before the next
/// epoch's TPVs.
public enum NMEAWriter {
    /// The geoid's height above the ellipsoid in GGA (the simulated receiver's place), metres.
    public static let geoidSeparationM = 47.0

    /// The sentences of one epoch. A fix with mode below 2 becomes a no-fix epoch.
    public static func sentences(_ fix: Fix) -> [String] {
        guard let time = fix.time else { return [] }
        let (date, hms) = clock(time)
        let valid = fix.mode >= 2 && fix.coordinate.isValid
        let (lat, ns) = valid ? angle(fix.latitude, degreesWidth: 2, positive: "N", negative: "S") : ("", "")
        let (lon, ew) = valid ? angle(fix.longitude, degreesWidth: 3, positive: "E", negative: "W") : ("", "")
        // gpsd derives its error estimates from the DOPs: HDOP ~ eph / (2 × UERE 8 m / √2)-ish;
        // the sentences carry the simulated error through HDOP and GST.
        let eph = fix.eph.isFinite ? fix.eph : 10
        let hdop = fix.hdop.isFinite ? fix.hdop : max(0.5, eph / 5.0)
        let quality = valid ? 1 : 0
        let alt = fix.altitude.isFinite ? fix.altitude : 0
        let gga =
            "GPGGA,\(hms),\(lat),\(ns),\(lon),\(ew),\(quality),\(valid ? "09" : "00"),\(f(hdop, 1)),\(f(alt, 1)),M,\(f(geoidSeparationM, 1)),M,,"
        var out = [
            gga,
            "GPGSA,A,\(valid ? (fix.mode >= 3 ? 3 : 2) : 1),05,07,09,13,15,17,19,21,23,,,,\(f(hdop * 1.6, 1)),\(f(hdop, 1)),\(f(hdop * 1.2, 1))",
        ]
        if let used = fix.satellitesUsed, valid { out = sky(used: used, hdop: hdop, mode: fix.mode, gga: gga) }
        if valid {
            let sd = eph / 2
            out.append(
                "GPGST,\(hms),\(f(sd, 1)),\(f(sd, 1)),\(f(sd, 1)),0.0,\(f(sd / 2.0.squareRoot(), 1)),\(f(sd / 2.0.squareRoot(), 1)),\(f(sd * 1.5, 1))"
            )
        }
        // A receiver that reports no speed or course leaves RMC's fields empty.
        let knots = fix.speed.isFinite ? f(fix.speed / 0.514444, 2) : valid ? "" : f(0, 2)
        let course = fix.track.isFinite ? f(fix.track, 1) : valid ? "" : f(0, 1)
        out.append(
            "GPRMC,\(hms),\(valid ? "A" : "V"),\(lat),\(ns),\(lon),\(ew),\(knots),\(course),\(date),,,\(valid ? "A" : "N")"
        )
        return out.map { "$" + $0 + "*" + checksum($0) + "\r" }
    }

    /// GSV (at least the same 8 satellites in view each epoch), then a GSA naming the `used`
    /// first of them, then GGA: gpsd 3.22 reports a SKY when the next epoch's GSV is complete,
    /// its satellites marked by this epoch's GSA, so an unchanging sky keeps the two in step.
    static func sky(used: Int, hdop: Double, mode: Int, gga: String) -> [String] {
        let all = [2, 5, 7, 9, 13, 15, 17, 19, 21, 23, 27, 30]
        let prns = Array(all.prefix(max(8, min(12, used))))
        let usedPRNs = Array(all.prefix(max(1, min(12, used))))
        let messages = (prns.count + 3) / 4
        var out: [String] = []
        for m in 0..<messages {
            var s = "GPGSV,\(messages),\(m + 1),\(two(prns.count))"
            for p in prns[(m * 4)..<min(prns.count, m * 4 + 4)] { s += ",\(two(p)),\(two(20 + p * 2)),\(p * 12),38" }
            out.append(s)
        }
        let fields = usedPRNs.map(two) + Array(repeating: "", count: 12 - usedPRNs.count)
        out.append(
            "GPGSA,A,\(mode >= 3 ? 3 : 2),\(fields.joined(separator: ",")),\(f(hdop * 1.6, 1)),\(f(hdop, 1)),\(f(hdop * 1.2, 1))"
        )
        var g = gga.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        g[7] = two(usedPRNs.count)
        return out + [g.joined(separator: ",")]
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    static func checksum(_ body: String) -> String {
        var x: UInt8 = 0
        for b in body.utf8 { x ^= b }
        let h = String(x, radix: 16, uppercase: true)
        return h.count == 1 ? "0" + h : h
    }

    static func f(_ v: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (abs(v) * scale).rounded()
        let whole = Int(r / scale)
        var frac = String(Int(r) - whole * Int(scale))
        while frac.count < decimals { frac = "0" + frac }
        return (v < 0 && r > 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + frac : "")
    }

    static func angle(_ v: Double, degreesWidth: Int, positive: String, negative: String) -> (String, String) {
        let a = abs(v)
        var deg = Int(a)
        var minutes = (a - Double(deg)) * 60
        minutes = (minutes * 100_000).rounded() / 100_000
        if minutes >= 60 {
            deg += 1
            minutes -= 60
        }
        var d = String(deg)
        while d.count < degreesWidth { d = "0" + d }
        var m = f(minutes, 5)
        if minutes < 10 { m = "0" + m }
        return (d + m, v < 0 ? negative : positive)
    }

    static func clock(_ t: Double) -> (String, String) {
        let iso = Timestamp.iso8601(t)  // 2026-03-14T08:02:38.000Z
        let c = Array(iso)
        let date = String(c[8...9]) + String(c[5...6]) + String(c[2...3])
        let hms = String(c[11...12]) + String(c[14...15]) + String(c[17...18]) + "." + String(c[20...21])
        return (date, hms)
    }
}
