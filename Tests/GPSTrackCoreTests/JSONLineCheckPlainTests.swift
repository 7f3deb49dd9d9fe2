import Foundation
import Testing

@testable import GPSTrackCore

/// The line check's fast path (`isPlainCompact`): it takes the lines gpsd really writes, and it
/// takes nothing the full scan would not take as it is, over those lines and their mutations.
@Suite struct JSONLineCheckPlainTests {
    /// Every line of the real gpsd JSON replays in ../shared/gpsd-captures/json, without the
    /// CR gpsd ends each with (the decoder drops it before the check).
    static func captureLines() throws -> [[UInt8]] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/gpsd-captures/json")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        var lines: [[UInt8]] = []
        for file in files.sorted() {
            let data = try Data(contentsOf: dir.appendingPathComponent(file))
            for line in data.split(separator: 0x0A) {
                #expect(line.last == 0x0D, "gpsd ends its lines with CR LF: \(file)")
                lines.append(Array(line.dropLast()))
            }
        }
        return lines
    }

    static func plain(_ line: [UInt8], maxDepth: Int = JSONLineCheck.maxDepth) -> Bool {
        line.withUnsafeBufferPointer { JSONLineCheck.isPlainCompact($0, maxDepth: maxDepth) }
    }

    /// What the full scan makes of `line`, the fast path left out (it copies).
    static func full(_ line: [UInt8]) -> JSONLineCheck.Outcome {
        JSONLineCheck.check(line[...], maxBytes: 65536)
    }

    @Test func gpsdsOwnLinesTakeTheFastPath() throws {
        let lines = try Self.captureLines()
        try #require(lines.count >= 1000, "the captures are in ../shared/gpsd-captures/json")
        let classes = Set(
            lines.compactMap {
                String(decoding: $0.prefix(24), as: UTF8.self).split(separator: "\"").dropFirst(3).first
            })
        #expect(classes.isSuperset(of: ["VERSION", "DEVICES", "WATCH", "TPV", "SKY"]), "\(classes.sorted())")
        var slow = 0
        for line in lines where !Self.plain(line) {
            slow += 1
            // Only a line the full scan must look at more closely: not ASCII, or escaped.
            #expect(
                line.contains { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }, "\(String(decoding: line, as: UTF8.self))")
        }
        #expect(slow * 100 < lines.count, "\(slow) of \(lines.count) lines took the full scan")
    }

    /// Each capture's first line of each class, mutated at every byte: an insertion, a
    /// substitution and a deletion of the bytes JSON's grammar turns on. Wherever the fast path
    /// says yes, the full scan passes the line unchanged.
    @Test func theFastPathTakesOnlyWhatTheFullScanTakesAsItIs() throws {
        // The first of each kind of line (its first 24 bytes), and a line in 300.
        var seen = Set<[UInt8]>()
        var samples: [[UInt8]] = []
        for (n, line) in try Self.captureLines().enumerated() where line.count <= 400 {
            if seen.insert(Array(line.prefix(24))).inserted || n % 300 == 0 { samples.append(line) }
        }
        try #require(samples.count >= 10, "\(samples.count) kinds of line")
        let bytes = Array(#" 0-+.e"\:,}]t"#.utf8) + [0x7F, 0x80]
        var accepted = 0
        var refused = 0
        for line in samples {
            for i in 0..<line.count {
                var mutants = [Array(line[..<i] + line[(i + 1)...])]
                for b in bytes {
                    mutants.append(Array(line[..<i] + [b] + line[i...]))
                    var m = line
                    m[i] = b
                    mutants.append(m)
                }
                for m in mutants {
                    guard Self.plain(m) else {
                        refused += 1
                        continue
                    }
                    accepted += 1
                    #expect(Self.full(m) == .object(m), "\(String(decoding: m, as: UTF8.self))")
                }
            }
        }
        // Both answers were given, many times: the mutations reach both sides of the path.
        #expect(accepted > 1000 && refused > 1000, "\(accepted) taken, \(refused) left to the full scan")
    }

    @Test func refusalsAndLimitsAreLeftToTheFullScan() {
        for (line, _) in JSONLineCheckTests.refusals { #expect(!Self.plain(Array(line.utf8)), "\(line)") }
        let eight = Array((String(repeating: #"{"a":"#, count: 8) + "1" + String(repeating: "}", count: 8)).utf8)
        #expect(Self.plain(eight))
        #expect(!Self.plain(eight, maxDepth: 7))
        #expect(Self.plain(Array(#"{"a":[[],{},-0.5e+3,0,10E2,true,false,null,"x y"],"b":{"c":[1]}}"#.utf8)))
        for line in [#"{"a":1} "#, #"{"a": 1}"#, #"{"a":"é"}"#, #"{"a":"\n"}"#, "{}x", "{", ""] {
            #expect(!Self.plain(Array(line.utf8)), "\(line)")
        }
    }
}
