import Testing
@testable import GPSTrackCore
import GPSTrackSim

/// The purpose-built JSON parser (issue 11): what RFC 8259 allows, read right; everything else
/// refused, never a crash or a hang.
@Suite struct JSONValueTests {
    func parse(_ s: String) throws -> JSONValue { try JSONValue.parse(Array(s.utf8)) }

    @Test func readsEveryKindOfValue() throws {
        let v = try parse(#" {"a": [1, -2.5e3, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {}, "c": []} "#)
        #expect(v["a"] == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null,
                                  .string("x\"\\/\u{8}\u{c}\n\r\té😀")]))
        #expect(v["b"] == .object([:]) && v["c"] == .array([]))
        #expect(try parse("\"plain ünïcode\"") == .string("plain ünïcode"))
        #expect(try parse(#"{"k":1,"k":2}"#)["k"] == .number(2), "the last of duplicate names counts")
    }

    /// Numbers equal the standard library's correctly rounded reading of the same text.
    @Test func numbersAreCorrectlyRounded() throws {
        var rng = SeededRandom(seed: 5)
        var texts = ["0", "-0", "0.1", "1e22", "1e23", "9007199254740993", "123456789012345678901234567890",
                     "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "0.000001234", "13.377692237",
                     "52.516313811000003", "-179.99999999999997", "1E+2", "1e-5"]
        for _ in 0..<2000 { texts.append("\(rng.uniform(-180...180))") }
        for _ in 0..<500 { texts.append(String(format6(rng.uniform(-90...90)))) }
        for t in texts {
            #expect(try parse(t) == .number(Double(t)!), "\(t)")
        }
    }

    func format6(_ v: Double) -> String {
        let scaled = (v * 1_000_000).rounded() / 1_000_000
        return "\(scaled)"
    }

    @Test(arguments: [
        "", " ", "{", "[", "[1,]", "[1 2]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}", "{'a':1}", "tru", "nul", "True",
        "01", "1.", ".5", "+1", "-", "1e", "1e+", "--1", "0x10", "NaN", "Infinity", "-Infinity", "1e999", "-1e400",
        "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"tab\there\"", "\"nl\nhere\"",
        "1 2", "{} x", "[] []", "\u{0}",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try parse(text) }
    }

    @Test func refusesInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22]) }
        #expect(throws: JSONValue.ParseError.self) { try parse(String(repeating: "[", count: 100_000)) }
        #expect(throws: JSONValue.ParseError.self) {
            try parse(String(repeating: "{\"a\":", count: JSONValue.maxDepth + 1) + "1" + String(repeating: "}", count: JSONValue.maxDepth + 1))
        }
        #expect((try? parse(String(repeating: "[", count: JSONValue.maxDepth) + String(repeating: "]", count: JSONValue.maxDepth))) != nil,
                "nesting up to the limit is fine")
    }

    /// Seeded random mutations of a fences file: every one parses or is refused, none crashes.
    @Test func mutatedFencesNeverCrash() {
        let fences = FenceGenerator.fences(count: 20, origin: Coordinate(latitude: 47, longitude: 8), sideM: 2000, seed: 3)
        let good = Array(FenceGenerator.geoJSON(fences).utf8)
        var rng = SeededRandom(seed: 9)
        var refused = 0
        for _ in 0..<300 {
            var bytes = good
            for _ in 0..<(1 + Int(rng.unit() * 4)) {
                let at = Int(rng.unit() * Double(bytes.count - 1))
                switch Int(rng.unit() * 3) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: Int(rng.unit() * 256))
                case 1: bytes.remove(at: at)
                default: bytes.insert(UInt8(truncatingIfNeeded: Int(rng.unit() * 256)), at: at)
                }
            }
            if (try? JSONValue.parse(bytes)) == nil { refused += 1 }
        }
        #expect(refused > 100, "most mutations break the JSON")
    }
}
