import GPSTrackCore
import GPSTrackProtocol
import Testing

@Suite struct TimestampTests {
    // 1773475358 is what libgps's gps_unpack gives for "2026-03-14T08:02:38.000Z"; 951782400 is
    // `date -u -d 2000-02-29 +%s`.
    @Test func formatsKnownInstants() {
        #expect(Timestamp.iso8601(1_773_475_358) == "2026-03-14T08:02:38.000Z")
        #expect(Timestamp.iso8601(951_782_400.25) == "2000-02-29T00:00:00.250Z")
        #expect(Timestamp.iso8601(0) == "1970-01-01T00:00:00.000Z")
    }

    // The ends from `date -u -d 9999-12-31T23:59:59 +%s` (253402300799) and
    // `date -u -d 0000-01-01 +%s` (-62167219200).
    @Test func aTimeOutsideTheYears0000To9999IsNull() {
        #expect(Timestamp.iso8601(253_402_300_799.999) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(-62_167_219_200) == "0000-01-01T00:00:00.000Z")
        for t in [253_402_300_800, -62_167_219_200.001, 1e300, -1e300, .infinity, .nan] {
            #expect(Timestamp.iso8601(t) == "null", "\(t)")
        }
    }

    @Test func parsesAndRejects() {
        #expect(Timestamp.parse("2026-03-14T08:02:38.000Z") == 1_773_475_358)
        #expect(Timestamp.parse("2000-02-29T00:00:00.5Z") == 951_782_400.5)
        #expect(Timestamp.parse("2026-03-14T08:02:38Z") == 1_773_475_358)
        #expect(Timestamp.parse("2026-13-14T08:02:38Z") == nil)
        #expect(Timestamp.parse("yesterday") == nil)
        #expect(Timestamp.parse("2026-03-14 08:02:38Z") == nil)
    }

    /// A fraction of any length reads (its first 15 digits count) and never traps: the control
    /// fuzzer's find, a request whose `until` had 24 digits of fraction, ended the daemon with
    /// an Int64 overflow.
    @Test func aLongFractionReadsAndNeverOverflows() {
        let t = Timestamp.parse("2026-03-14T08:02:38.333333333333333333333335Z")
        #expect(t.map { abs($0 - 1_773_475_358.333_333_3) < 1e-6 } == true, "\(String(describing: t))")
        let long = "2026-03-14T08:02:38." + String(repeating: "9", count: 400) + "Z"
        #expect(Timestamp.parse(long).map { abs($0 - 1_773_475_359) < 1e-6 } == true)
        #expect(Timestamp.parse("2026-03-14T08:02:38." + String(repeating: "1", count: 30) + "xZ") == nil)
        #expect(Timestamp.parse("2026-03-14T08:02:38.Z") == nil)
        let line = #"{"cmd":"export","format":"gpx","trip":3,"until":"2026-03-14T09:00:00.333333333333333333333335Z"}"#
        guard case .success(.export(_, _, let until)) = ControlRequest.parse(Array(line.utf8)[...]) else {
            Issue.record("the fuzzer's request does not parse")
            return
        }
        #expect(until.map { abs($0 - 1_773_478_800.333_333_3) < 1e-6 } == true)
    }

    /// What is written reads back as the same text, in every year: the control fuzzer's find, a
    /// request's `until` in the year 4164 whose ".333" came back as ".332" (the Double nearest
    /// to it lay below it, and the writer rounds down).
    @Test func aWrittenTimeReadsBackAsWritten() {
        var checked = 0
        for year in stride(from: 1, through: 9999, by: 7) {
            for ms in ["000", "001", "333", "499", "500", "667", "999"] {
                let text = "\(String(repeating: "0", count: 4 - String(year).count))\(year)-03-14T09:00:20.\(ms)Z"
                guard let t = Timestamp.parse(text) else {
                    Issue.record("does not parse: \(text)")
                    continue
                }
                #expect(Timestamp.iso8601(t) == text, "\(t)")
                checked += 1
            }
        }
        #expect(checked == 1429 * 7)
        let line = #"{"cmd":"export","format":"gpx","trip":3,"until":"4164-03-14T09:00:20.333333333333333333333335Z"}"#
        guard case .success(let request) = ControlRequest.parse(Array(line.utf8)[...]),
            case .success(let again) = ControlRequest.parse(Array(request.line.utf8)[...])
        else {
            Issue.record("the fuzzer's request does not parse")
            return
        }
        #expect(again.line == request.line && request.line.contains("4164-03-14T09:00:20.333Z"), "\(request.line)")
    }
}
