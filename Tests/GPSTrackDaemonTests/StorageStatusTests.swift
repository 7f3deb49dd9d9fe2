import Foundation
import GPSTrackJSON
import GPSTrackProtocol
import Testing

/// The storage part of `status` on a full disk (issue 30): the new counts follow the fields
/// that were there, which keep their text, and gpstrackctl prints them.
@Suite struct StorageStatusTests {
    static var full: StatusReply {
        var r = StatusReply()
        r.gpsd.address = "localhost:2947"
        r.trip.state = "running"
        r.version = "0.2.0"
        r.storage.state = "degraded"
        r.storage.reason = "database or disk is full"
        r.storage.path = "/var/lib/gpstrackd/gpstrackd.db"
        r.storage.droppedEvents = 0
        r.storage.droppedPoints = 0
        r.storage.thinnedPoints = 1200
        r.storage.thinnedLocations = 3
        r.storage.waitingEvents = 2
        r.storage.waitingPoints = 40
        return r
    }

    @Test func theCountsFollowTheFieldsThatWereThere() throws {
        let line = ReplyEncoder.encode(Self.full)
        #expect(
            line.contains(
                #""storage":{"state":"degraded","reason":"database or disk is full","path":"/var/lib/gpstrackd/gpstrackd.db","#
                    + #""dropped_events":0,"dropped_points":0,"thinned_points":1200,"thinned_locations":3,"waiting_events":2,"waiting_points":40},"#
            ),
            "\(line)")
        #expect(try ReplyDecoder.decode(StatusReply.self, line: line) == Self.full)
    }

    @Test func gpstrackctlPrintsThem() throws {
        let ctl = URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent().appendingPathComponent(
            "gpstrackctl"
        ).path
        let sock = FileManager.default.temporaryDirectory.appendingPathComponent("ctl-storage-\(getpid()).sock").path
        let server = try OneReplyServer(path: sock, reply: ReplyEncoder.encode(Self.full))
        let r = try ExecutableRunner.run(["--socket", sock, "status"], executable: ctl)
        server.wait()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.lines.contains(
                "storage   degraded (database or disk is full), /var/lib/gpstrackd/gpstrackd.db: 2 events waiting, "
                    + "40 track points waiting, 1200 track points thinned, 3 MQTT locations thinned"), "\(r.stdout)")
    }
}
