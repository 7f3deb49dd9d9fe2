import CGPS
import GPSTrackCore

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of JSON's punctuation the reader looks for.
private let openBrace: UInt8 = 0x7B
private let closeBrace: UInt8 = 0x7D
private let quoteMark: UInt8 = 0x22
private let colon: UInt8 = 0x3A
private let comma: UInt8 = 0x2C
private let backslash: UInt8 = 0x5C
private let minus: UInt8 = 0x2D

/// gpsd's own TPV reports, read without libgps's table walk. libgps reads every member of a
/// TPV by comparing its name against each of the ~60 names of its table in turn, and calls its
/// trace function once per character: half a replay's time (docs/PERFORMANCE.md). Here the
/// members gpstrackd uses are taken by a single pass over the checked line, their numbers and
/// time converted by libgps's own `safe_atof` and `iso8601_to_timespec`, so a value reads as
/// libgps reads it. Any line whose reading by libgps is not certain (a member libgps 3.22 does
/// not type as these do, a repeated member, a string with an escape or beyond its limit, a
/// nested value, `true`/`null` for a number, a mode not of one or two digits) is declined and
/// goes to libgps, which stays the decoder of everything else and the referee:
/// GPSDTPVTests and the gpsd-line fuzz harness hold the two to the same fix.
extension GPSDDecoder {
    /// What a member is, to libgps 3.22's TPV table: a number (libgps refuses a quoted value for
    /// it) or a string (it refuses an unquoted one); GPSDTPVTests asks libgps of every member.
    enum TPVMember: UInt8 {
        case classTag, device, time, mode, datum, number
        case lat, lon, altHAE, altMSL, geoidSep, eph, epx, epy, speed, track, climb
    }

    /// The members known, in the order gpsd writes them (the search for the next name starts
    /// after the last one found, so a line in gpsd's order takes one comparison a member).
    static let tpvMembers: TPVTable = {
        let table: [(String, TPVMember)] = [
            ("class", .classTag), ("device", .device), ("mode", .mode), ("time", .time),
            ("leapseconds", .number), ("ept", .number), ("lat", .lat), ("lon", .lon),
            ("altHAE", .altHAE), ("altMSL", .altMSL), ("alt", .number), ("datum", .datum),
            ("epx", .epx), ("epy", .epy), ("epv", .number), ("track", .track), ("magtrack", .number),
            ("magvar", .number), ("speed", .speed), ("climb", .climb), ("epd", .number), ("eps", .number),
            ("epc", .number), ("ecefx", .number), ("ecefy", .number), ("ecefz", .number),
            ("ecefvx", .number), ("ecefvy", .number), ("ecefvz", .number), ("ecefpAcc", .number),
            ("ecefvAcc", .number), ("velN", .number), ("velE", .number), ("velD", .number),
            ("geoidSep", .geoidSep), ("eph", .eph), ("sep", .number), ("depth", .number),
            ("dgpsAge", .number), ("dgpsSta", .number), ("status", .number), ("relN", .number),
            ("relE", .number), ("relD", .number), ("wanglem", .number), ("wangler", .number),
            ("wanglet", .number), ("wspeedr", .number), ("wspeedt", .number),
        ]
        var t = TPVTable()
        for (name, kind) in table {
            t.entries.append(TPVTable.Entry(start: t.names.count, count: name.utf8.count, kind: kind))
            t.names += Array(name.utf8)
        }
        return t
    }()

    /// The members' names one after another (no array a name: a name compared is one memcmp).
    struct TPVTable {
        struct Entry {
            var start: Int
            var count: Int
            var kind: TPVMember
        }
        var names: [UInt8] = []
        var entries: [Entry] = []
    }

    /// Longest string taken for each kind (libgps's limits are 39 for the datum, 127 for the
    /// device and 512 for the time; a longer one goes to libgps, which says what it makes of it).
    static let tpvStringLimit: (device: Int, time: Int, datum: Int) = (100, 40, 32)

    /// The fix of a TPV line (`body`, checked by `JSONLineCheck`, its class TPV) as libgps
    /// would decode it; nil when the line is not one this reader is sure of (libgps decides).
    static func plainTPV(_ body: ArraySlice<UInt8>) -> Fix? {
        body.withUnsafeBufferPointer { b in
            tpvMembers.names.withUnsafeBufferPointer { names in
                tpvMembers.entries.withUnsafeBufferPointer { table in plainTPV(b, names: names, table: table) }
            }
        }
    }

    private static func plainTPV(
        _ b: UnsafeBufferPointer<UInt8>, names: UnsafeBufferPointer<UInt8>,
        table: UnsafeBufferPointer<TPVTable.Entry>
    ) -> Fix? {
        let n = b.count
        guard n >= 2, b[0] == openBrace, b[n - 1] == closeBrace else { return nil }
        var figures = TPVFigures()
        var seen: UInt64 = 0
        var sawClass = false
        var closed = false
        var next = 0
        var i = 1
        while i < n - 1 {
            // A member: "name":value, then a comma or the closing brace.
            guard b[i] == quoteMark else { return nil }
            let nameStart = i + 1
            var j = nameStart
            while j < n, b[j] != quoteMark { j += 1 }
            guard j + 2 < n, b[j + 1] == colon else { return nil }
            guard let at = find(UnsafeBufferPointer(rebasing: b[nameStart..<j]), names: names, table: table, from: next)
            else {
                return nil
            }
            let bit: UInt64 = 1 << at
            guard seen & bit == 0 else { return nil }
            seen |= bit
            next = at + 1 == table.count ? 0 : at + 1
            let kind = table[at].kind
            let start = j + 2
            var end = start
            if b[start] == quoteMark {
                end = start + 1
                while end < n, b[end] != quoteMark {
                    // Escapes, controls and non-ASCII bytes: libgps's reading of them decides.
                    guard b[end] >= 0x20, b[end] < 0x7F, b[end] != backslash else { return nil }
                    end += 1
                }
                guard end < n else { return nil }
                let text = UnsafeBufferPointer(rebasing: b[(start + 1)..<end])
                end += 1
                switch kind {
                case .classTag:
                    guard text.elementsEqual("TPV".utf8) else { return nil }
                    sawClass = true
                case .device:
                    guard text.count <= tpvStringLimit.device else { return nil }
                    figures.device = text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
                case .time:
                    guard text.count <= tpvStringLimit.time else { return nil }
                    figures.time = time(text)
                case .datum:
                    guard text.count <= tpvStringLimit.datum else { return nil }
                default:
                    return nil  // a string where libgps wants a number: it refuses the report
                }
            } else {
                // A number (the line passed the check: a token starting with '-' or a digit
                // is one), up to the comma or the brace.
                guard b[start] == minus || (b[start] >= 48 && b[start] <= 57) else { return nil }
                while end < n, b[end] != comma, b[end] != closeBrace { end += 1 }
                let token = UnsafeBufferPointer(rebasing: b[start..<end])
                // libgps refuses a token over 512 characters; none of gpsd's comes near 48.
                guard token.count <= 48 else { return nil }
                switch kind {
                case .classTag, .device, .time, .datum:
                    return nil  // a number where libgps wants a string: it refuses the report
                case .mode:
                    guard token.count <= 2, token.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
                    figures.mode = token.reduce(0) { $0 * 10 + Int($1 - 48) }
                case .number:
                    break
                default:
                    figures.set(kind, number(token))
                }
            }
            guard end < n else { return nil }
            if b[end] == closeBrace {
                guard end == n - 1 else { return nil }
                closed = true
                break
            }
            guard b[end] == comma else { return nil }
            i = end + 1
        }
        return sawClass && closed ? figures.fix() : nil
    }

    /// The index of `name` in the table, searched from `from` round to it again.
    private static func find(
        _ name: UnsafeBufferPointer<UInt8>, names: UnsafeBufferPointer<UInt8>,
        table: UnsafeBufferPointer<TPVTable.Entry>, from: Int
    ) -> Int? {
        guard let base = name.baseAddress, let pool = names.baseAddress else { return nil }
        var k = from
        for _ in 0..<table.count {
            let e = table[k]
            if e.count == name.count, memcmp(pool + e.start, base, e.count) == 0 { return k }
            k = k + 1 == table.count ? 0 : k + 1
        }
        return nil
    }

    /// A number (at most 48 characters) as libgps's `safe_atof` reads it.
    private static func number(_ token: UnsafeBufferPointer<UInt8>) -> Double {
        withCString(token) { safe_atof($0) }
    }

    /// A time as libgps's `iso8601_to_timespec` reads it, and as libgps marks it: a time
    /// whose whole seconds are 0 is none (TIME_SET unset).
    private static func time(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let ts = withCString(text) { iso8601_to_timespec($0) }
        return ts.tv_sec == 0 ? nil : gpstrack_seconds(ts)
    }

    /// `bytes` (at most 55, which the reader's limits keep to) NUL-terminated in a buffer on
    /// the stack, for libgps's C converters: no allocation a value.
    private static func withCString<R>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeMutablePointer<CChar>) -> R
    ) -> R {
        var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &buffer) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(bytes))
            raw[bytes.count] = 0
            return body(raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
    }
}

extension GPSDDecoder.Record {
    /// Whether two readings of a line say the same, figure for figure (an unknown figure, NaN,
    /// the same as another unknown one): how GPSDTPVTests and the gpsd-line fuzz harness hold
    /// `plainTPV` to libgps.
    public func readsAs(_ other: Self) -> Bool {
        switch (self, other) {
        case (.tpv(let a), .tpv(let b)):
            let figures: [KeyPath<Fix, Double>] = [
                \.latitude, \.longitude, \.altitude, \.altitudeHAE, \.eph, \.epx, \.epy, \.speed, \.track, \.climb,
                \.hdop,
            ]
            func same(_ x: Double, _ y: Double) -> Bool { x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN) }
            return a.mode == b.mode && a.device == b.device && a.satellitesUsed == b.satellitesUsed
                && same(a.time ?? .nan, b.time ?? .nan) && (a.time == nil) == (b.time == nil)
                && figures.allSatisfy { same(a[keyPath: $0], b[keyPath: $0]) }
        case (.device(let p, let x), .device(let q, let y)): return p == q && x == y
        case (.sky(let a), .sky(let b)): return a == b
        case (.other(let a), .other(let b)): return a == b
        case (.malformed(let a), .malformed(let b)): return a == b
        case (.blank, .blank): return true
        case (.tpv, _), (.device, _), (.sky, _), (.other, _), (.malformed, _), (.blank, _): return false
        }
    }
}
