import Foundation
import GPSTrackCore
import Testing

@testable import GPSTrackDaemon

/// gpsd's own TPV lines read without libgps's table walk (`GPSDDecoder.plainTPV`): every TPV
/// of the real captures, their mutations and libgps's own marks read as libgps reads them,
/// and what libgps might read otherwise goes to libgps.
@Suite struct GPSDTPVTests {
    /// libgps reads every line: the reference.
    static func reference() -> GPSDDecoder {
        let d = GPSDDecoder()
        d.readsPlainTPV = false
        return d
    }

    /// The TPV lines of the real gpsd JSON replays in ../shared/gpsd-captures/json.
    static func captureTPVs() throws -> [[UInt8]] {
        let dir = SharedCaptureTests.folder.appendingPathComponent("json")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        var lines: [[UInt8]] = []
        let tag = Array(#""class":"TPV""#.utf8)
        for file in files.sorted() {
            let data = try Data(contentsOf: dir.appendingPathComponent(file))
            for line in data.split(separator: 0x0A) where Array(line).firstRange(of: tag) != nil {
                lines.append(Array(line))
            }
        }
        return lines
    }

    @Test func everyCapturedTPVReadsAsLibgpsReadsIt() throws {
        let lines = try Self.captureTPVs()
        try #require(lines.count >= 5000, "the captures are in ../shared/gpsd-captures/json")
        let fast = GPSDDecoder()
        let libgps = Self.reference()
        var taken = 0
        for line in lines {
            let a = fast.decode(line[...])
            let b = libgps.decode(line[...])
            #expect(a.readsAs(b), "\(String(decoding: line, as: UTF8.self)): \(a) against libgps's \(b)")
            guard case .tpv = b else {
                Issue.record("libgps reads no fix from \(String(decoding: line, as: UTF8.self))")
                continue
            }
            if GPSDDecoder.plainTPV(line.last == 0x0D ? line.dropLast() : line[...]) != nil { taken += 1 }
        }
        // gpsd's own lines are what the reader is for: all of them, not a lucky few.
        #expect(taken == lines.count, "\(taken) of \(lines.count) read without libgps's table walk")
    }

    /// The reader's table types every member as libgps 3.22 does, asked of libgps itself: a
    /// number refused quoted and read bare, a string the other way round.
    @Test func everyMemberIsTypedAsLibgpsTypesIt() {
        let libgps = Self.reference()
        var asked = 0
        for entry in GPSDDecoder.tpvMembers.entries where entry.kind != .classTag {
            let name = String(
                decoding: GPSDDecoder.tpvMembers.names[entry.start..<(entry.start + entry.count)], as: UTF8.self)
            let isString = [.device, .time, .datum].contains(entry.kind)
            func reads(_ value: String) -> Bool {
                let line = Array(#"{"class":"TPV","\#(name)":\#(value)}"#.utf8)
                if case .tpv = libgps.decode(line[...]) { return true }
                return false
            }
            #expect(reads(#""x""#) == isString, "\(name), quoted")
            #expect(reads("5") == !isString, "\(name), a bare number")
            asked += 1
        }
        #expect(asked == GPSDDecoder.tpvMembers.entries.count - 1)
        #expect(asked >= 45)
    }

    /// Every byte of a few real lines replaced (or dropped): wherever the reader takes the
    /// mutant, libgps reads the same fix from it; wherever libgps refuses it, so does the reader.
    @Test func mutantsReadAsLibgpsReadsThem() throws {
        let lines = try Self.captureTPVs()
        let bases: [[UInt8]] = [
            lines.first { $0.count > 300 && $0.firstRange(of: Array("wanglem".utf8)) != nil },
            lines.first { $0.firstRange(of: Array("datum".utf8)) != nil },
            lines.first { $0.firstRange(of: Array("status".utf8)) != nil },
            Array(
                #"{"class":"TPV","device":"/dev/ttySIM0","mode":3,"time":"2026-03-14T08:00:01.000Z","lat":52.509875827,"lon":13.29386908,"altHAE":81.06,"altMSL":34.06,"alt":34.06,"epx":4.794,"epy":4.794,"track":359.8831,"speed":13.912,"climb":-0.138,"eph":6.78,"geoidSep":47.0}"#
                    .utf8),
        ].compactMap { $0 }
        try #require(bases.count == 4, "capture lines with wanglem, datum and status")
        let replacements: [UInt8?] = [nil] + Array(#""{}[],:-.e0 9tn\xT"#.utf8) + [0x80, 0x0A]
        let fast = GPSDDecoder()
        let libgps = Self.reference()
        var mutants = 0
        var taken = 0
        var refused = 0
        for base in bases {
            let base = base.last == 0x0D ? Array(base.dropLast()) : base
            for i in base.indices {
                for r in replacements where r != base[i] {
                    var m = base
                    if let r { m[i] = r } else { m.remove(at: i) }
                    mutants += 1
                    let a = fast.decode(m[...])
                    let b = libgps.decode(m[...])
                    if case .malformed = b { refused += 1 }
                    if GPSDDecoder.plainTPV(m[...]) != nil { taken += 1 }
                    #expect(a.readsAs(b), "\(String(decoding: m, as: UTF8.self)): \(a) against libgps's \(b)")
                }
            }
        }
        #expect(mutants > 10_000)
        #expect(taken > mutants / 4, "the reader took \(taken) of \(mutants)")
        #expect(refused > mutants / 20, "libgps refused \(refused) of \(mutants)")
    }

    /// What libgps 3.22 makes of a TPV that gpsd itself would not write, found by asking it
    /// (docs/ARCHITECTURE.md): a longitude alone is a position (LATLON_SET), a latitude alone is
    /// none; a time in the epoch's first second is no time, a time it cannot read is 1900.
    @Test(arguments: [
        #"{"class":"TPV","mode":3,"lon":2.5}"#,
        #"{"class":"TPV","mode":3,"lat":1.5}"#,
        #"{"class":"TPV","mode":2,"time":"1970-01-01T00:00:00.500Z","lat":1,"lon":2}"#,
        #"{"class":"TPV","mode":2,"time":"not a time","lat":1,"lon":2}"#,
        #"{"class":"TPV","mode":0}"#,
        #"{"class":"TPV","mode":10,"lat":1e2,"lon":-0.5E-1,"speed":0,"track":-0}"#,
        #"{"class":"TPV","device":"","mode":3,"lat":1,"lon":2}"#,
        #"{"mode":3,"lon":2,"class":"TPV","lat":1,"device":"/dev/b"}"#,
        #"{"class":"TPV","mode":3,"lat":1,"lon":2,"datum":"WGS84","status":2,"leapseconds":18}"#,
    ])
    func libgpsMarksAreKept(line: String) {
        let bytes = Array(line.utf8)
        #expect(GPSDDecoder.plainTPV(bytes[...]) != nil, "taken by the reader")
        let a = GPSDDecoder().decode(bytes[...])
        let b = Self.reference().decode(bytes[...])
        #expect(a.readsAs(b), "\(a) against libgps's \(b)")
        guard case .tpv = b else {
            Issue.record("libgps reads a fix")
            return
        }
    }

    /// Lines libgps might read otherwise are left to it, and it decides.
    @Test(arguments: [
        #"{"class":"TPV","mode":3,"lat":"1.5","lon":2}"#,  // refused by libgps: a quoted number
        #"{"class":"TPV","mode":3,"datum":5,"lat":1,"lon":2}"#,  // refused: a number for a string
        #"{"class":"TPV","mode":3,"lat":1,"lat":2,"lon":2}"#,  // libgps keeps the last
        #"{"class":"TPV","mode":3,"lat":true,"lon":2}"#,  // libgps reads NaN
        #"{"class":"TPV","mode":3.7,"lat":1,"lon":2}"#,  // libgps reads 3
        #"{"class":"TPV","mode":3,"relH":"x","lat":1,"lon":2}"#,  // a member libgps 3.22 does not know
        #"{"class":"TPV","device":"/dev/\u0074ty","mode":3,"lat":1,"lon":2}"#,  // an escape
        #"{"class":"TPV","mode":3,"lat":1,"lon":2,"extra":[1]}"#,  // refused: an array
        #"{"class":"TPV","mode":3,"lat":1,"lon":2,}"#,  // not JSON: the check refuses it, and so would the reader
    ])
    func uncertainLinesGoToLibgps(line: String) {
        let bytes = Array(line.utf8)
        #expect(GPSDDecoder.plainTPV(bytes[...]) == nil, "left to libgps")
        let a = GPSDDecoder().decode(bytes[...])
        let b = Self.reference().decode(bytes[...])
        #expect(a.readsAs(b), "\(a) against libgps's \(b)")
    }
}
