/// ISO 8601 formatting and parsing of UTC times, without Foundation's date machinery.
public enum Timestamp {
    /// Formats seconds since the Unix epoch as `2026-03-14T08:02:38.000Z` (milliseconds);
    /// `null` for a time not in the years 0000 to 9999 (a damaged state file's 1e300 trapped).
    public static func iso8601(_ seconds: Double) -> String {
        guard seconds >= -62_167_219_200, seconds < 253_402_300_800 else { return "null" }
        let millisTotal = Int64(clamping: seconds * 1000, rounding: .down)
        var days = millisTotal / 86_400_000
        var millisOfDay = millisTotal % 86_400_000
        if millisOfDay < 0 {
            millisOfDay += 86_400_000
            days -= 1
        }
        let (y, m, d) = civil(fromDays: days)
        // Written into one buffer: every event line and track point has a time (the pieces
        // made as strings of their own were a tenth of an event's encoding).
        return String(unsafeUninitializedCapacity: 24) { b in
            func put(_ v: Int64, _ width: Int, at: Int) {
                var v = v
                for k in stride(from: at + width - 1, through: at, by: -1) {
                    b[k] = UInt8(truncatingIfNeeded: 48 + v % 10)
                    v /= 10
                }
            }
            put(y, 4, at: 0)
            b[4] = 45
            put(m, 2, at: 5)
            b[7] = 45
            put(d, 2, at: 8)
            b[10] = 84
            put(millisOfDay / 3_600_000, 2, at: 11)
            b[13] = 58
            put(millisOfDay / 60_000 % 60, 2, at: 14)
            b[16] = 58
            put(millisOfDay / 1000 % 60, 2, at: 17)
            b[19] = 46
            put(millisOfDay % 1000, 3, at: 20)
            b[23] = 90
            return 24
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z`; nil for anything else.
    public static func parse(_ text: String) -> Double? {
        let u = Array(text.utf8)
        guard u.count >= 20, u[4] == 45, u[7] == 45, u[10] == 84, u[13] == 58, u[16] == 58,
            u.last == 90
        else { return nil }
        func num(_ r: Range<Int>) -> Int64? {
            var v: Int64 = 0
            for i in r {
                guard u[i] >= 48 && u[i] <= 57 else { return nil }
                v = v * 10 + Int64(u[i] - 48)
            }
            return v
        }
        guard let y = num(0..<4), let mo = num(5..<7), let d = num(8..<10), let h = num(11..<13),
            let mi = num(14..<16), let s = num(17..<19),
            (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61
        else { return nil }
        var fraction = 0.0
        var millis: Int64 = 0
        if u.count > 20 {
            // Every digit is checked; at most 15 count (a longer fraction overflowed Int64: a
            // control request could end the daemon with one).
            let digits = 20..<(u.count - 1)
            guard u[19] == 46, !digits.isEmpty, digits.allSatisfy({ u[$0] >= 48 && u[$0] <= 57 }),
                let f = num(20..<min(u.count - 1, 35))
            else { return nil }
            fraction = Double(f) / pow10(min(digits.count, 15))
            let shown = min(digits.count, 3)
            millis = (num(20..<(20 + shown)) ?? 0) * (shown == 1 ? 100 : shown == 2 ? 10 : 1)
        } else if u[19] != 90 {
            return nil
        }
        let whole = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s
        var t = Double(whole) + fraction
        // The Double nearest to "...20.667" may lie a hair below it (in 2038 as in 4164), which
        // `iso8601` (milliseconds, rounded down) wrote as ".666": moved up by steps until it
        // writes as read (a request written back read differently: the control fuzzer's find).
        // A step or two; bounded all the same.
        let written = whole * 1000 + millis
        for _ in 0..<64 where Int64(clamping: t * 1000, rounding: .down) < written { t = t.nextUp }
        return t
    }

    private static func pow10(_ n: Int) -> Double {
        var v = 1.0
        for _ in 0..<n { v *= 10 }
        return v
    }

    // Howard Hinnant's civil-from-days and days-from-civil algorithms.
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
