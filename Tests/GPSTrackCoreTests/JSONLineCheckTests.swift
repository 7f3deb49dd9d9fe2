import GPSTrackCore
import GPSTrackProtocol
import Testing

@Suite struct JSONLineCheckTests {
    func check(_ s: String, max: Int = 65536) -> JSONLineCheck.Outcome {
        JSONLineCheck.check(Array(s.utf8)[...], maxBytes: max)
    }

    func compact(_ s: String) -> String? {
        guard case .object(let bytes) = check(s) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func insignificantWhitespaceGoesAway() {
        #expect(
            compact(#"{"class": "TPV", "mode": 3, "lat": 52.5, "sats": [ 1 , 2 ],"x":{ } }"#)
                == #"{"class":"TPV","mode":3,"lat":52.5,"sats":[1,2],"x":{}}"#)
        #expect(compact("\t{ \"a\" :\r\n \"b c\" } \r") == #"{"a":"b c"}"#, "spaces inside strings stay")
        #expect(compact(#"{"s":"\"\\\/\b\f\n\r\t\u00e9é"}"#) == #"{"s":"\"\\\/\b\f\n\r\t\u00e9é"}"#)
        #expect(compact(#"{"n":[-0.5e-3,0,10E+2,true,false,null]}"#) == #"{"n":[-0.5e-3,0,10E+2,true,false,null]}"#)
    }

    /// Without a copy: a line compact as it came is `.asGiven` (nothing written to the
    /// buffers); any whitespace between tokens, before or after makes the same copy as `check`.
    @Test func aCompactLineIsTakenAsGiven() {
        func lazily(_ s: String) -> JSONLineCheck.Outcome {
            var buffers = JSONLineCheck.Buffers()
            return JSONLineCheck.check(Array(s.utf8)[...], maxBytes: 65536, reusing: &buffers, copyCompact: false)
        }
        for line in [
            #"{"class":"TPV","mode":3,"lat":52.5,"sats":[1,2],"x":{},"s":"a b","t":true}"#,
            #"{"s":"\"\\\/\u00e9é"}"#,
        ] {
            #expect(lazily(line) == .asGiven, "\(line)")
            #expect(check(line) == .object(Array(line.utf8)), "check copies it: \(line)")
        }
        for line in [
            #"{"class": "TPV","mode":3}"#, #" {"a":1}"#, #"{"a":1} "#, "{\"a\":[1,\r\n2]}", #"{"a":{"b":1 }}"#,
        ] {
            #expect(lazily(line) == check(line), "\(line)")
            guard case .object = lazily(line) else {
                Issue.record("not copied: \(line)")
                continue
            }
        }
        #expect(lazily(" ") == .blank)
        for (line, reason) in Self.refusals {
            guard case .malformed(let why) = lazily(line) else {
                Issue.record("accepted without a copy: \(line)")
                continue
            }
            #expect(why.contains(reason), "\(why)")
        }
    }

    @Test func blank() {
        #expect(check("") == .blank)
        #expect(check(" \r\t") == .blank)
    }

    static let refusals: [(String, String)] = [
        // The line that hangs libgps 3.22's gps_unpack: two objects joined by a bare CR.
        (
            #"{"class":"DEVICE","activated":0}"# + "\r" + #"{"class":"DEVICE","activated":0}"#,
            "more than one JSON object"
        ),
        (#"{"a":1}{"b":2}"#, "more than one JSON object"),
        (#"{"a":1} x"#, "data after the JSON object"),
        (#"[1,2]"#, "not a JSON object"),
        (#"{"a":1"#, "ends inside the object"),
        (#"{"a":"x}"#, "unterminated string"),
        (#"{"a":"\q"}"#, "bad escape"),
        (#"{"a":"\u12G4"}"#, "bad \\u escape"),
        ("{\"a\":\"x\ty\"}", "control character 0x09 in a string"),
        ("{\"a\":1,\u{1}\"b\":2}", "control character 0x01 outside a string"),
        ("{\"a\":1\u{0}}", "control character 0x00 outside a string"),
        (#"{"a":01}"#, "bad number"),
        (#"{"a":-}"#, "bad number"),
        (#"{"a":1.}"#, "bad number"),
        (#"{"a":1e}"#, "bad number"),
        (#"{"a":tru}"#, "unexpected byte"),
        (#"{"a":1,}"#, "expected a member name"),
        (#"{"a" 1}"#, "expected ':'"),
        (#"{"a":[1,2}"#, "unexpected '}'"),
        (#"{"a":{"b":1]}"#, "unexpected ']'"),
        (#"{a:1}"#, "expected a member name"),
        (String(repeating: #"{"a":"#, count: 9) + "1" + String(repeating: "}", count: 9), "nested deeper than 8"),
    ]

    @Test(arguments: refusals)
    func refused(_ line: String, _ reason: String) {
        guard case .malformed(let why) = check(line) else {
            Issue.record("accepted: \(line)")
            return
        }
        #expect(why.contains(reason), "\(why)")
    }

    @Test func invalidUTF8AndLength() {
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] {
            let line = Array(#"{"a":""#.utf8) + bad + Array(#""}"#.utf8)
            guard case .malformed(let why) = JSONLineCheck.check(line[...], maxBytes: 100) else {
                Issue.record("accepted \(bad)")
                continue
            }
            #expect(why.contains("invalid UTF-8"))
        }
        #expect(check(#"{"a":"1234"}"#, max: 12) == .object(Array(#"{"a":"1234"}"#.utf8)))
        guard case .malformed(let why) = check(#"{"a":"12345"}"#, max: 12) else {
            Issue.record("too long")
            return
        }
        #expect(why.contains("longer than 12 bytes"))
        #expect(
            compact(String(repeating: #"{"a":"#, count: 8) + "1" + String(repeating: "}", count: 8)) != nil,
            "8 deep is allowed")
    }
}
