import Testing

@testable import GPSTrackJSON

/// The purpose-built JSON parser (issue 11): what RFC 8259 allows, read right; everything else
/// refused, never a crash or a hang.
@Suite struct JSONValueTests {
    func parse(_ s: String) throws -> JSONValue { try JSONValue.parse(Array(s.utf8)) }

    @Test func readsEveryKindOfValue() throws {
        let v = try parse(
            #" {"a": [1, -2.5e3, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {}, "c": []} "#)
        #expect(
            v["a"]
                == .array([
                    .number(1), .number(-2500), .bool(true), .bool(false), .null,
                    .string("x\"\\/\u{8}\u{c}\n\r\té😀"),
                ]))
        #expect(v["b"] == .object([:]) && v["c"] == .array([]))
        #expect(try parse("\"plain ünïcode\"") == .string("plain ünïcode"))
        #expect(try parse(#"{"k":1,"k":2}"#)["k"] == .number(2), "the last of duplicate names counts")
    }

    /// Numbers equal the standard library's correctly rounded reading of the same text.
    @Test func numbersAreCorrectlyRounded() throws {
        var rng = SplitMix(state: 5)
        var texts = [
            "0", "-0", "0.1", "1e22", "1e23", "9007199254740993", "123456789012345678901234567890",
            "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "0.000001234", "13.377692237",
            "52.516313811000003", "-179.99999999999997", "1E+2", "1e-5",
        ]
        for _ in 0..<2000 { texts.append("\(Double.random(in: -180...180, using: &rng))") }
        for _ in 0..<500 { texts.append(String(format6(Double.random(in: -90...90, using: &rng)))) }
        for t in texts {
            #expect(try parse(t) == .number(Double(t)!), "\(t)")
        }
    }

    func format6(_ v: Double) -> String {
        let scaled = (v * 1_000_000).rounded() / 1_000_000
        return "\(scaled)"
    }

    @Test(arguments: [
        "", " ", "{", "[", "[1,]", "[1 2]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}", "{'a':1}", "tru", "nul",
        "True",
        "01", "1.", ".5", "+1", "-", "1e", "1e+", "--1", "0x10", "NaN", "Infinity", "-Infinity", "1e999", "-1e400",
        "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"tab\there\"",
        "\"nl\nhere\"",
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
            try parse(
                String(repeating: "{\"a\":", count: JSONValue.maxDepth + 1) + "1"
                    + String(repeating: "}", count: JSONValue.maxDepth + 1))
        }
        #expect(
            (try? parse(
                String(repeating: "[", count: JSONValue.maxDepth) + String(repeating: "]", count: JSONValue.maxDepth)))
                != nil,
            "nesting up to the limit is fine")
    }

    /// Seeded random mutations of a fences file: every one parses or is refused, none crashes.
    /// The streamed member's elements arrive in order and are not kept; only the top level's
    /// member of that name is streamed; a repeated name starts over (the last counts, as in
    /// `parse`); everything else is the document `parse` reads, errors included.
    @Test func streamingHandsOverTheTopLevelArrayOnly() throws {
        func stream(_ s: String) throws -> (JSONValue, [JSONValue], Int) {
            var seen: [JSONValue] = []
            var begun = 0
            let v = try JSONValue.parse(
                Array(s.utf8), streaming: "items",
                begin: {
                    begun += 1
                    seen = []
                },
                element: { seen.append($0) })
            return (v, seen, begun)
        }
        let text = #"{"a":1,"items":[1,{"items":[7]},[2]],"z":"end"}"#
        let (v, seen, begun) = try stream(text)
        #expect(seen == [.number(1), .object(["items": .array([.number(7)])]), .array([.number(2)])])
        #expect(begun == 1)
        var expected = try parse(text)
        if case .object(var o) = expected {
            o["items"] = .array([])
            expected = .object(o)
        }
        #expect(v == expected, "the rest of the document as parse reads it, the array left empty")

        let (v2, seen2, begun2) = try stream(#"{"items":[1,2],"items":[3]}"#)
        #expect(seen2 == [.number(3)] && begun2 == 2 && v2["items"] == .array([]))
        let (v3, seen3, begun3) = try stream(#"{"items":[1],"items":"none"}"#)
        #expect(
            seen3 == [.number(1)] && begun3 == 1 && v3["items"] == .string("none"),
            "a later non-array member of that name is what the document says")
        #expect(try stream("[1,2]").0 == .array([.number(1), .number(2)]), "no object: nothing streamed")
        for bad in [#"{"items":[1,2,}"#, #"{"items":[1]} x"#, #"{"items":[1],"k":tru}"#, #"{"items":["\u12"]}"#] {
            #expect(throws: JSONValue.ParseError.self, "\(bad)") { _ = try stream(bad) }
            #expect(throws: JSONValue.ParseError.self, "\(bad)") { _ = try parse(bad) }
        }
        let deep =
            #"{"items":["# + String(repeating: "[", count: JSONValue.maxDepth)
            + String(repeating: "]", count: JSONValue.maxDepth) + "]}"
        #expect(throws: JSONValue.ParseError.self, "the depth limit counts the streamed array") { _ = try stream(deep) }
        #expect(throws: JSONValue.ParseError.self) { _ = try parse(deep) }
    }
}

/// A seeded generator (SplitMix64), so that the random texts are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
