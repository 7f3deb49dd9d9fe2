import GPSTrackCore

/// Fixes given an HDOP and a count of satellites used, which the NMEA writer puts in GGA, GSA
/// and GSV for gpsd to report in SKY: the values the tests then find on what the daemon
/// stored and sent.
enum FixQuality {
    /// The HDOP the writer gives by default (from eph, one decimal, so gpsd sees what it saw
    /// before) and 4 to 8 satellites of the 8 in view, changing every few seconds.
    static func qualified(_ fixes: [Fix]) -> [Fix] {
        fixes.map { fix in
            var f = fix
            guard let t = f.time else { return f }
            let eph = f.eph.isFinite ? f.eph : 10
            f.hdop = (max(0.5, eph / 5) * 10).rounded() / 10
            f.satellitesUsed = 4 + (Int(t) / 7) % 5
            return f
        }
    }

    /// How a stored or sent (hdop, sat) of the fix at second `t` compares with the feed's:
    /// `exact`, or `neighbour` when it is the epoch's before or after in the feed. gpsd 3.22 reports
    /// an epoch's SKY when the next epoch's GSV is complete; now and then the fix takes a
    /// neighbouring epoch's SKY (about 2.6% of the points with gpsfake at 4 ms a sentence, 250
    /// times real time; none or one of 30 at 10 ms), so the tests bound those at 5% (or one)
    /// instead of demanding none.
    /// `firstEpoch`: not the feed's, in its first 3 s of fixes: gpsd 3.22's first SKY after
    /// the no-fix padding reports uSat 0 (unknown: no GSA marked a satellite used yet) or,
    /// seen once in a dozen runs, another epoch's values.
    /// `satUnknown`: the HDOP right and no count: gpsd 3.22 reports uSat 0 (unknown) for the
    /// epoch after a gap in the feed (the seeded day's 2D fixes are left out of the NMEA)
    /// until a GSA marks satellites used again, and a count of 0 is sent as none.
    enum Match { case exact, neighbour, firstEpoch, satUnknown, wrong }

    static func match(
        _ hdop: Double?, _ sat: Int?, at t: Int, in quality: [Int: (hdop: Double, sat: Int)]
    ) -> Match {
        func same(_ q: (hdop: Double, sat: Int)?) -> Bool { q.map { $0.hdop == hdop && $0.sat == sat } ?? false }
        if same(quality[t]) { return .exact }
        if let first = quality.keys.min(), t < first + 3 { return .firstEpoch }
        if sat == nil, let q = quality[t], q.hdop == hdop { return .satUnknown }
        // The epochs before and after in the feed (across a gap where 2D fixes were left out).
        let before = (1...30).lazy.map { t - $0 }.first { quality[$0] != nil }
        let after = (1...30).lazy.map { t + $0 }.first { quality[$0] != nil }
        return same(before.flatMap { quality[$0] }) || same(after.flatMap { quality[$0] }) ? .neighbour : .wrong
    }

    /// Each fix's HDOP and satellites by whole second of its time.
    static func byTime(_ fixes: [Fix]) -> [Int: (hdop: Double, sat: Int)] {
        var out: [Int: (hdop: Double, sat: Int)] = [:]
        for f in fixes {
            // 3D fixes alone: the NMEA of `LiveHarness.nmeaFile` leaves 2D ones out.
            if let t = f.time, f.mode == 3, let n = f.satellitesUsed, f.hdop.isFinite {
                out[Int(t.rounded(.down))] = (f.hdop, n)
            }
        }
        return out
    }
}
