import GPSTrackJSON
import Testing

/// The one JSON writer (issue 21): what every line the daemon and gpstrackctl write goes
/// through. The expected lines are written out by hand from the rules in ReplyEncoder's
/// documentation: declaration order, `null` for nil, `@Omitted` left out, numbers as `12.0`.
@Suite struct JSONWriterTests {
    struct Inner: Encodable {
        var name: String
        var values: [Double]
    }

    struct Line: Encodable {
        var event: String
        var lat: Double?
        var count: Int
        var ok: Bool
        @Omitted var extra: String?
        var inner: Inner?
        var tags: [String]
    }

    @Test func keysInDeclarationOrderNilAsNullOmittedLeftOut() {
        let full = Line(
            event: "enter", lat: 47.5, count: 3, ok: true, extra: "x", inner: Inner(name: "a", values: [1, 2.5]),
            tags: ["home", "work"])
        #expect(
            ReplyEncoder.encode(full)
                == #"{"event":"enter","lat":47.5,"count":3,"ok":true,"extra":"x","inner":{"name":"a","values":[1.0,2.5]},"tags":["home","work"]}"#
        )
        let bare = Line(event: "exit", lat: nil, count: 0, ok: false, extra: nil, inner: nil, tags: [])
        #expect(
            ReplyEncoder.encode(bare) == #"{"event":"exit","lat":null,"count":0,"ok":false,"inner":null,"tags":[]}"#)
    }

    @Test func numbersAsEveryLineWritesThem() {
        #expect(ReplyEncoder.number(12) == "12.0")
        #expect(ReplyEncoder.number(.nan) == "null" && ReplyEncoder.number(.infinity) == "null")
        #expect(ReplyEncoder.number(nil) == "null")
        #expect(ReplyEncoder.number(47.1234567, decimals: 6) == "47.123457")
        #expect(ReplyEncoder.number(-0.04, decimals: 1) == "0.0", "no negative zero")
        #expect(ReplyEncoder.number(2.25, decimals: 1) == "2.3", "half away from zero")
        #expect((-0.0001).rounded(decimals: 2).sign == .plus)
        #expect(ReplyEncoder.encode([Double.nan, 1e21]) == "[null,1e+21]")
    }

    @Test func stringsEscapedPerRFC8259() {
        #expect(ReplyEncoder.quote("a\"b\\c") == #""a\"b\\c""#)
        #expect(ReplyEncoder.quote("\n\r\t\u{01}\u{1f}") == #""\n\r\t\u0001\u001f""#)
        #expect(ReplyEncoder.quote("Zürich €") == "\"Zürich €\"", "non-ASCII is written as itself")
        #expect(ReplyEncoder.encode("x\u{7f}") == "\"x\u{7f}\"", "DEL is not a control character in JSON")
    }

    @Test func aParsedValueIsWrittenBackWithItsMembersByName() throws {
        let text = #"{"b":[true,null,{"z":1,"a":"s"}],"a":-2.5}"#
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(ReplyEncoder.encode(value) == #"{"a":-2.5,"b":[true,null,{"a":"s","z":1.0}]}"#)
        #expect(try JSONValue.parse(Array(ReplyEncoder.encode(value).utf8)) == value, "it reads back as itself")
    }

    @Test func fixedDecimalsForPositionsAndAFrameForStreaming() {
        #expect(
            ReplyEncoder.encode([FixedDecimal(13, places: 7), FixedDecimal(-0.00005, places: 7)]) == "[13,-0.00005]")
        #expect(ReplyEncoder.encode(FixedDecimal(8.54123456, places: 7)) == "8.5412346")
        #expect(ReplyEncoder.encode(FixedDecimal(-0.00000001, places: 7)) == "0", "no negative zero")
        #expect(ReplyEncoder.encode(FixedDecimal(.nan, places: 7)) == "null", "not finite: as any number")
        struct Collection: Encodable {
            var type = "FeatureCollection"
            var bbox: [Int] = []
            var features: [Int] = []
        }
        let frame = ReplyEncoder.frame(around: Collection())
        #expect(frame.head == #"{"type":"FeatureCollection","bbox":[],"features":["#, "the last empty array")
        #expect(frame.tail == "]}")
    }
}
