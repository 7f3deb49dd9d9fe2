import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

/// `anchor` on the wire and on gpstrackctl's command line: every request reads back as itself,
/// a bad one is refused naming what is wrong, and the status's `anchor` section is absent while
/// the anchor is up (the rest of the reply as it always was, ReplyTypesTests).
@Suite struct AnchorRequestTests {
    @Test func everyAnchorRequestReadsBackAsItselfAndOnlyTheStatusIsReadOnly() {
        let requests: [ControlRequest] = [
            .anchor(.status), .anchor(.raise), .anchor(.ack), .anchor(.drop(.init(radiusM: 40))),
            .anchor(.drop(.init(radiusM: 60, bearing: 225, distanceM: 30))),
            .anchor(.drop(.init(rodeM: 35, depthM: 5))),
            .anchor(.drop(.init(radiusM: 50, bearing: 10, distanceM: 20, rodeM: 40, depthM: 8))), .guardAck,
        ]
        for r in requests {
            #expect(ControlRequest.parse(ArraySlice(r.line.utf8)) == .success(r), "\(r.line)")
            let admin = CommandRights.socketNeedsAdmin(ControlServer.name(of: r))
            #expect(admin == (r != .anchor(.status)), "\(r.line)")
        }
        #expect(ControlRequest.anchor(.status).line == #"{"cmd":"anchor"}"#)
        #expect(
            ControlRequest.anchor(.drop(.init(radiusM: 40))).line
                == #"{"cmd":"anchor","action":"drop","radius_m":40.0}"#)
    }

    @Test(arguments: [
        (#"{"cmd":"anchor","action":"drop"}"#, "needs \"radius_m\""),
        (#"{"cmd":"anchor","action":"drop","radius_m":40,"bearing":20}"#, "go together"),
        (#"{"cmd":"anchor","action":"drop","rode_m":40}"#, "go together"),
        (#"{"cmd":"anchor","action":"drop","radius_m":2}"#, "\"radius_m\" must be a number from 5 to 10000"),
        (#"{"cmd":"anchor","action":"drop","radius_m":"40"}"#, "\"radius_m\" must be a number"),
        (#"{"cmd":"anchor","action":"drop","radius_m":1e300}"#, "must be a number"),
        (#"{"cmd":"anchor","action":"drop","radius_m":40,"depth_m":-1,"rode_m":30}"#, "\"depth_m\" must be"),
        (#"{"cmd":"anchor","action":"weigh"}"#, "\"action\" must be"),
        (#"{"cmd":"anchor","action":7}"#, "\"action\" must be"),
        (#"{"cmd":"anchor","action":"raise","radius_m":40}"#, "takes no fields"),
        (#"{"cmd":"anchor","radius_m":40}"#, "need \"action\""),
        (#"{"cmd":"anchor","action":"drop","radius":40}"#, "unexpected field \"radius\""),
    ])
    func aBadAnchorRequestIsRefusedNamingWhy(line: String, message: String) {
        switch ControlRequest.parse(ArraySlice(line.utf8)) {
        case .success(let r): Issue.record("\(line) read as \(r)")
        case .failure(let e): #expect(e.message.contains(message), "\(line): \(e.message)")
        }
    }

    @Test func theStatusHasAnAnchorSectionOnlyWhileTheAnchorIsDown() throws {
        var r = StatusReply()
        #expect(!ReplyEncoder.encode(r).contains("anchor"))
        var a = StatusReply.AnchorStatus()
        a.lat = 54.3521
        a.lon = 10.1743
        a.radiusM = 49.5
        a.since = "2026-03-14T08:00:00.000Z"
        a.alarm = "alarm"
        a.drag = .init(raised: "2026-03-14T10:00:00.000Z", repeats: 2, acknowledged: false)
        r.anchor = a
        let line = ReplyEncoder.encode(r)
        #expect(
            line.hasSuffix(
                #","anchor":{"lat":54.3521,"lon":10.1743,"radius_m":49.5,"since":"2026-03-14T08:00:00.000Z","distance_m":null,"#
                    + #""bearing":null,"max_distance_m":0.0,"max_at":null,"alarm":"alarm","#
                    + #""drag":{"raised":"2026-03-14T10:00:00.000Z","repeats":2,"acknowledged":false},"no_position":null,"#
                    + #""track_points":0}}"#), "\(line)")
        #expect(try ReplyDecoder.decode(StatusReply.self, line: line) == r)
        let reply = AnchorReply(anchor: a)
        #expect(try ReplyDecoder.decode(AnchorReply.self, line: ReplyEncoder.encode(reply)) == reply)
        #expect(ReplyEncoder.encode(AnchorReply(anchor: nil)) == #"{"ok":true,"anchor":null}"#)
    }

    @Test(arguments: [
        ["anchor", "drop"], ["anchor", "drop", "--bearing", "20", "--radius", "40"],
        ["anchor", "drop", "--rode", "30", "--radius", "40"], ["anchor", "drop", "--radius", "many"],
        ["anchor", "raise", "--radius", "40"], ["anchor", "weigh"], ["anchor", "drop", "now"],
        ["status", "--radius", "40"], ["guard", "acknowledge"],
        ["export", "--anchor", "--format", "html"], ["export", "--anchor", "--format", "gpx", "--trip", "2"],
        ["export", "--anchor", "--format", "geojson", "--fences"],
    ])
    func gpstrackctlRefusesABadAnchorCommandLineBeforeConnecting(args: [String]) throws {
        let r = try ControlSocketTests.run(["--socket", "/nonexistent/gpstrackd.sock"] + args)
        #expect(r.status == 64, "\(args): exit \(r.status), \(r.stderr)")
        #expect(r.stderr.contains("gpstrackctl:"), "\(r.stderr)")
    }

    @Test func theAnchorExportPageReadsBackAndTakesNoOtherScope() {
        let r = ControlRequest.exportPage(ExportScope(trip: nil, since: nil, until: nil, anchor: true), after: 7)
        #expect(r.line == #"{"cmd":"export_page","anchor":true,"after":7}"#)
        #expect(ControlRequest.parse(ArraySlice(r.line.utf8)) == .success(r))
        for bad in [
            #"{"cmd":"export_page","anchor":true,"trip":2}"#, #"{"cmd":"export_page","anchor":1}"#,
            #"{"cmd":"export_page","anchor":true,"since":"2026-03-14T08:00:00Z"}"#,
        ] {
            guard case .failure(let e) = ControlRequest.parse(ArraySlice(bad.utf8)) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(e.message.contains("\"anchor\""), "\(bad): \(e.message)")
        }
    }
}
