import CGPS
import GPSTrackCore
import GPSTrackProtocol

/// Decodes gpsd JSON lines with libgps's own decoder (`libgps_json_unpack`, the step that
/// `gps_unpack` repeats), after `JSONLineCheck` has refused anything it could not survive;
/// replay and the live source both decode through here. The ~24 KB `gps_data_t` is allocated
/// once and reused; C types stop here.
public final class GPSDDecoder {
    /// What one line held.
    public enum Record: Sendable {
        /// A TPV report.
        case tpv(Fix)
        /// A DEVICE report: a receiver appeared (`activated`) or went away (gpsd 3.22 sends
        /// `"activated":0`, which its own libgps does not parse, when a receiver is removed).
        case device(path: String?, activated: Bool)
        /// A SKY report, read when given a time, at most one per receiver per `skyIntervalS`.
        case sky(Sky)
        /// Another class gpsd sends (VERSION, DEVICES, WATCH, a SKY not read...): ignored for tracking.
        case other(className: String)
        /// Not a gpsd JSON object.
        case malformed(reason: String)
        /// An empty line.
        case blank
    }

    /// Longest line accepted; gpsd's own reports are a few kilobytes at most.
    public static let maxLineBytes = 64 * 1024

    let data: UnsafeMutablePointer<gps_data_t>
    private var scratch: [CChar] = []
    /// Seconds between two SKY reports read from one receiver: the rest are only checked
    /// (a SKY is the heaviest line gpsd sends; status and the metrics want only the last).
    public var skyIntervalS = 1.0
    /// When each receiver's last SKY was read, by device path: monotonic time, and the time of
    /// the receiver's latest TPV then.
    var skyRead: [String: (now: Double, fix: Double?)] = [:]
    /// Each receiver's latest TPV time, by device path.
    var epochTime: [String: Double] = [:]
    /// Whether gpsd's own TPV lines are read by `plainTPV` (false: libgps reads every line,
    /// the reference the tests and the fuzz harness hold it to).
    public var readsPlainTPV = true
    /// The line check's storage, kept between lines.
    private(set) var checkBuffers = JSONLineCheck.Buffers()

    public init() {
        data = .allocate(capacity: 1)
        UnsafeMutableRawPointer(data).initializeMemory(
            as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
    }

    deinit {
        data.deallocate()
    }

    /// Decodes one line (without its newline): checked and made compact by `JSONLineCheck`
    /// first, so libgps's parser only ever sees one well-formed object in gpsd's own form.
    /// `now` (monotonic seconds) spaces the SKY reports read; without it none is read.
    public func decode(_ line: ArraySlice<UInt8>, now: Double? = nil) -> Record {
        // gpsd ends every report with CR LF: the CR, insignificant whitespace, goes here, or
        // the check would copy every line to drop it. Its lines come compact, so they are
        // checked without a copy.
        let line = line.last == 0x0D ? line.dropLast() : line
        let body: ArraySlice<UInt8>
        switch JSONLineCheck.check(line, maxBytes: Self.maxLineBytes, reusing: &checkBuffers, copyCompact: false) {
        case .blank: return .blank
        case .malformed(let reason): return .malformed(reason: reason)
        case .asGiven: body = line
        case .object(let compact): body = compact[...]
        }
        guard let className = Self.className(body) else { return .malformed(reason: "no \"class\" member") }
        // Only TPV, DEVICE and SKY inform the tracker: the others (VERSION, WATCH...) need no
        // unpacking, and a SKY only now and then.
        guard className == "TPV" || className == "DEVICE" || (className == "SKY" && skyDue(body, now: now)) else {
            return .other(className: className)
        }

        // gpsd's own TPVs without libgps's table walk (GPSDDecoder+TPV.swift); libgps reads
        // what that declines.
        if className == "TPV", readsPlainTPV, let fix = Self.plainTPV(body) {
            noteEpoch(fix)
            return .tpv(fix)
        }
        scratch.removeAll(keepingCapacity: true)
        body.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { scratch.append(contentsOf: $0) }
        }
        scratch.append(0)
        gpstrack_clear_set(data)
        // libgps's own decoding, once: not gps_unpack, which loops for ever when a
        // well-formed object breaks libgps's schema (a DEVICE whose "parity" is longer than one
        // character, found by fuzzing) - see shim.h.
        let status = scratch.withUnsafeBufferPointer { buf in
            var end: UnsafePointer<CChar>? = nil
            return libgps_json_unpack(buf.baseAddress, data, &end)
        }
        if status > 0, className == "TPV" {
            return .malformed(reason: "libgps refused the TPV report: \(String(cString: json_error_string(status)))")
        }
        if className == "SKY" { return status == 0 ? sky(body) : .other(className: className) }
        let record = Self.record(className: className, body: body, data: data)
        if case .tpv(let fix) = record { noteEpoch(fix) }
        return record
    }

    /// Decodes a line as a `LineSplitter` cut it (the live source's and replay's way):
    /// `truncated` when it was cut at the length limit, which makes it malformed whatever its bytes.
    public func decode(_ bytes: ArraySlice<UInt8>, truncated: Bool, now: Double? = nil) -> Record {
        truncated ? Self.tooLong : decode(bytes, now: now)
    }

    /// What a line cut at the length limit is.
    public static let tooLong = Record.malformed(reason: "line longer than \(maxLineBytes) bytes")

    /// Interprets what libgps unpacked into `data` from `body` (a line whose class is
    /// `className`).
    private static func record(className: String, body: ArraySlice<UInt8>, data: UnsafePointer<gps_data_t>) -> Record {
        let set = gpstrack_set(data)
        if className == "DEVICE" {
            if set != 0 {
                return .device(path: string(from: gpstrack_device_path(data)), activated: true)
            }
            // libgps reads no path from a deactivation: the report's own text has it.
            if contains(body, deactivated) {
                return .device(path: stringMember("path", in: body), activated: false)
            }
        }
        // Other classes matter only as context; libgps 3.22 cannot read some that gpsd 3.22
        // writes (unscaled SUBFRAME almanacs), which is no fault of the line.
        guard className == "TPV" else { return .other(className: className) }
        guard set != 0 else { return .malformed(reason: "libgps could not parse the TPV report") }
        // A TPV without MODE_SET carries mode 0 ("not seen"): a fix the tracker rejects.
        var fix = makeFix(set: set, data: data)
        // libgps keeps the last path it read: only a TPV naming its device has one.
        if contains(body, deviceKey) { fix.device = string(from: gpstrack_device_path(data)) }
        return .tpv(fix)
    }

    /// The string value of member `key` in a flat JSON object's text (no escapes: gpsd's
    /// device paths have none); nil when absent.
    static func stringMember(_ key: String, in body: ArraySlice<UInt8>) -> String? {
        let n = Array("\"\(key)\":\"".utf8)
        guard body.count >= n.count else { return nil }
        var i = body.startIndex
        while i <= body.endIndex - n.count {
            if body[i..<(i + n.count)].elementsEqual(n) {
                let start = i + n.count
                guard let end = body[start...].firstIndex(of: UInt8(ascii: "\"")), end > start else { return nil }
                return String(decoding: body[start..<end], as: UTF8.self)
            }
            i += 1
        }
        return nil
    }

    private static func makeFix(set: UInt64, data: UnsafePointer<gps_data_t>) -> Fix {
        let f = gpstrack_fix(data)!.pointee
        var figures = TPVFigures()
        figures.mode = Int(f.mode)
        figures.time = set & GPSTRACK_TIME_SET != 0 ? gpstrack_fix_time(data) : nil
        (figures.lat, figures.lon) = (f.latitude, f.longitude)
        (figures.altHAE, figures.altMSL, figures.geoidSep) = (f.altHAE, f.altMSL, f.geoid_sep)
        (figures.eph, figures.epx, figures.epy) = (f.eph, f.epx, f.epy)
        (figures.speed, figures.track, figures.climb) = (f.speed, f.track, f.climb)
        return figures.fix(hasPosition: set & GPSTRACK_LATLON_SET != 0)
    }

    /// A TPV's figures as read, by libgps or by `plainTPV`: made into a fix in one place.
    struct TPVFigures {
        var mode = 0
        var time: Double?
        var device: String?
        var lat = Double.nan, lon = Double.nan
        var altHAE = Double.nan, altMSL = Double.nan, geoidSep = Double.nan
        var eph = Double.nan, epx = Double.nan, epy = Double.nan
        var speed = Double.nan, track = Double.nan, climb = Double.nan

        mutating func set(_ member: TPVMember, _ v: Double) {
            switch member {
            case .lat: lat = v
            case .lon: lon = v
            case .altHAE: altHAE = v
            case .altMSL: altMSL = v
            case .geoidSep: geoidSep = v
            case .eph: eph = v
            case .epx: epx = v
            case .epy: epy = v
            case .speed: speed = v
            case .track: track = v
            case .climb: climb = v
            case .classTag, .device, .time, .mode, .datum, .number: break
            }
        }

        /// The fix; `hasPosition` as libgps marks it (LATLON_SET: a finite longitude, whatever
        /// the latitude), which by default is read from the figures the same way.
        func fix(hasPosition: Bool? = nil) -> Fix {
            let hasPosition = hasPosition ?? lon.isFinite
            let p = Physical.self
            var fix = Fix(
                mode: mode, time: time,
                latitude: hasPosition ? lat : .nan,
                longitude: hasPosition ? lon : .nan,
                altitude: p.within(
                    seaLevelHeight(msl: altMSL, hae: altHAE, geoidSeparation: geoidSep), p.altitude),
                eph: p.within(eph, p.error), epx: p.within(epx, p.error), epy: p.within(epy, p.error),
                speed: p.within(speed, p.speed), track: p.within(track, p.track), climb: p.within(climb, p.climb),
                device: device)
            fix.altitudeHAE = p.within(altHAE, p.altitude)
            return fix
        }
    }

    /// The height above mean sea level: altMSL, else altHAE less the geoid separation when
    /// gpsd gives both, else unknown (NaN): the ellipsoidal height is never passed off as it.
    static func seaLevelHeight(msl: Double, hae: Double, geoidSeparation: Double) -> Double {
        if msl.isFinite { return msl }
        guard hae.isFinite, geoidSeparation.isFinite else { return .nan }
        return hae - geoidSeparation
    }

    /// A receiver's figures beyond any vehicle's are no figures: unknown (NaN), as gpsd's
    /// absent ones (gpstrackd(8), GPSD). The position and time are the screen's to judge.
    enum Physical {
        static let altitude = -20_000.0...100_000.0
        static let error = 0.0...10_000_000.0
        static let speed = 0.0...2_000.0
        static let track = 0.0...360.0
        static let climb = -2_000.0...2_000.0

        static func within(_ v: Double, _ range: ClosedRange<Double>) -> Double { range.contains(v) ? v : .nan }
    }

    private static func string(from cString: UnsafePointer<CChar>?) -> String? {
        guard let cString, cString.pointee != 0 else { return nil }
        return String(cString: cString)
    }

    /// The needles looked for in every TPV and DEVICE, made once (an array a line was an
    /// allocation a fix).
    private static let deviceKey = Array("\"device\":".utf8)
    private static let deactivated = Array("\"activated\":0".utf8)
    private static let classKey = Array("\"class\"".utf8)

    private static func contains(_ body: ArraySlice<UInt8>, _ n: [UInt8]) -> Bool {
        guard body.count >= n.count else { return false }
        var i = body.startIndex
        while i <= body.endIndex - n.count {
            if body[i] == n[0], body[i..<(i + n.count)].elementsEqual(n) { return true }
            i += 1
        }
        return false
    }

    /// The value of the `"class"` member, found by a scan of the object's first 256 bytes.
    static func className(_ body: ArraySlice<UInt8>) -> String? {
        let key = classKey
        let end = min(body.endIndex, body.startIndex + 256)
        var i = body.startIndex
        while i + key.count <= end {
            if body[i] == key[0] && body[i..<(i + key.count)].elementsEqual(key) {
                var j = i + key.count
                while j < end, body[j] == 32 { j += 1 }
                guard j < end, body[j] == UInt8(ascii: ":") else { return nil }
                j += 1
                while j < end, body[j] == 32 { j += 1 }
                guard j < end, body[j] == UInt8(ascii: "\"") else { return nil }
                let start = j + 1
                var k = start
                while k < end, k - start <= 16, body[k] != UInt8(ascii: "\"") {
                    let c = body[k]
                    guard (c >= 65 && c <= 90) || (c >= 48 && c <= 57) else { return nil }
                    k += 1
                }
                guard k < end, k > start, body[k] == UInt8(ascii: "\"") else { return nil }
                return String(decoding: body[start..<k], as: UTF8.self)
            }
            i += 1
        }
        return nil
    }
}
