import GPSTrackCore
import GPSTrackProtocol
import Testing

/// The `anchor_*` keys: each sets its tunable; a bad value is an error naming the file and line.
@Suite struct AnchorConfigTests {
    @Test func everyKeySetsItsTunable() throws {
        let text = """
            anchor_warning_share = 0.7
            anchor_grace_fixes = 8
            anchor_grace_s = 20
            anchor_no_position_s = 90
            anchor_repeat_s = 300
            anchor_redrag_m = 25
            anchor_bow_height_m = 1.4
            anchor_margin_m = 12
            """
        let a = try ConfigParser.parse(text, file: "boat.conf").tracker.anchor
        #expect(a.warningShare == 0.7 && a.graceFixes == 8 && a.graceS == 20 && a.noPositionS == 90)
        #expect(a.repeatS == 300 && a.redragM == 25 && a.bowHeightM == 1.4 && a.marginM == 12)
        #expect(ConfigParser.keys.filter { $0.hasPrefix("anchor_") }.count == 8)
    }

    @Test(arguments: [
        ("anchor_warning_share = 1\n", 1, "below 1"),
        ("\nanchor_warning_share = 0\n", 2, "above 0"),
        ("anchor_grace_fixes = 0\n", 1, "from 1 to 3600"),
        ("anchor_grace_fixes = 2.5\n", 1, "whole number"),
        ("anchor_grace_s = -1\n", 1, ">= 0"),
        ("anchor_no_position_s = 0\n", 1, "> 0"),
        ("anchor_repeat_s = inf\n", 1, "expected a number"),
        ("anchor_redrag_m = soon\n", 1, "expected a number"),
        ("anchor_bow_height_m = -0.5\n", 1, ">= 0"),
        ("# boat\n\nanchor_margin_m = nan\n", 3, "expected a number"),
    ])
    func badValuesNameTheFileAndLine(text: String, line: Int, message: String) {
        do {
            _ = try ConfigParser.parse(text, file: "boat.conf")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect("\(error)".contains("boat.conf:\(line)") && error.message.contains(message), "\(error)")
        }
    }

    @Test func theSessionJudgesWithTheTrackersAssumedError() throws {
        let c = try ConfigParser.parse("assumed_error_m = 7\nanchor_grace_fixes = 3\n", file: "boat.conf")
        let session = TrackingSession(config: c.tracker)
        #expect(session.anchor.config.assumedErrorM == 7 && session.anchor.config.graceFixes == 3)
    }
}
