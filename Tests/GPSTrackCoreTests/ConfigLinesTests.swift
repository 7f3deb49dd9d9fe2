import GPSTrackCore
import GPSTrackProtocol
import Testing

/// Line ends and bytes of configuration files.
@Suite struct ConfigLinesTests {
    func parse(_ bytes: [UInt8]) throws(ConfigError) -> Configuration {
        try ConfigParser.parse(bytes, file: "c.conf")
    }

    func failure(_ bytes: [UInt8]) -> ConfigError? {
        do {
            _ = try parse(bytes)
            return nil
        } catch { return error }
    }

    @Test func crlfAndAnUnterminatedLastLineAreLines() throws {
        let c = try parse(Array("hysteresis_m = 5\r\nmqtt_topic = a/b\r\ndistance_filter_m = 7".utf8))
        #expect(c.tracker.hysteresisM == 5)
        #expect(c.mqtt.topic == "a/b")
        #expect(c.tracker.distanceFilterM == 7)
        #expect(c.origins["distance_filter_m"] == "c.conf:3")
        #expect(c.origin(of: "hysteresis_m") == "c.conf:1: ")
        #expect(c.origin(of: "fences") == "")
    }

    @Test func aBadValueAfterCRLFIsNotSwallowed() {
        // Found by fuzzing: read as one line, the invalid value went into the topic.
        let e = failure(Array("mqtt_topic = a\r\nmax_speed_mps = -5\r\n".utf8))
        #expect(e?.line == 2)
        #expect(e?.message.contains("max_speed_mps: must be > 0") == true)
    }

    @Test func nulInvalidUTF8ControlsAndLongLines() {
        let nul = failure(Array("distance_filter_m = 5\nsocket = /a\u{0}b\n".utf8))
        #expect(nul?.line == 2 && nul?.message == "NUL byte in the line")
        let latin1 = failure(Array("# ok\n\n".utf8) + [0x23, 0x20, 0xE9, 0x0A])
        #expect(latin1?.line == 3 && latin1?.message == "not UTF-8 text")
        let bareCR = failure(Array("socket = /a\rdistance_filter_m = 5\n".utf8))
        #expect(bareCR?.line == 1 && bareCR?.message.contains("control character U+000D") == true)
        let long = failure(Array(("socket = /" + String(repeating: "a", count: 5000) + "\n").utf8))
        #expect(long?.line == 1 && long?.message == "line longer than 4096 bytes")
        let ok = try? parse(Array(("socket = /" + String(repeating: "a", count: 4000) + "\r\n").utf8))
        #expect(ok?.socketPath.count == 4001)
        #expect(failure([]) == nil && failure(Array("\r\n\n# c\r\n".utf8)) == nil)
        #expect(failure(Array("distance_filter_m\t=\t5\t\r\n".utf8)) == nil, "tabs are blanks")
    }

    @Test func errorsNameFileAndLine() {
        let e = failure(Array("\r\n\r\nhysteresis_m = x\r\n".utf8))
        #expect(e?.description == "c.conf:3: hysteresis_m: expected a number, got 'x'")
    }
}
