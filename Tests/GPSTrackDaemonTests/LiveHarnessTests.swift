import Foundation
import Testing

/// The live tests' harness owns what it hands out: a port stays reserved against every other
/// process, and a stopped feed leaves no process, port or file behind.
@Suite(.serialized, .needs(.gpsfake, .tool("/usr/bin/python3", package: "python3")))
struct LiveHarnessTests {
    /// Whether another process can reserve `port` (bind its abstract name), as a second test
    /// process would: exit 0 when it could, 3 when the name was taken.
    static func anotherProcessReserves(_ port: Int) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [
            "-c",
            """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try: s.bind("\\0gpstrackd-test-port-" + sys.argv[1])
            except OSError: sys.exit(3)
            """, String(port),
        ]
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    @Test func aDrawnPortIsHeldAgainstEveryOtherProcess() throws {
        let port = LiveHarness.freePort()
        #expect(try Self.anotherProcessReserves(port) == 3, "port \(port) was handed out and not held")
        #expect(!TestPorts.reserve(port), "nor handed out twice in this process")
    }

    @Test func aStoppedFeedLeavesNothingBehind() throws {
        let log = try LiveHarness.nmeaFile("harness-\(getpid()).nmea", fixes: [], padding: 5)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port)
        // Started: gpsd accepts, and gpsfake's control socket is in the feed's own directory.
        #expect(LiveHarness.onLoopback(port, connect), "gpsd accepts when the feed has started")
        try LiveHarness.waitFor("gpsfake's control socket", timeout: 30) {
            FileManager.default.fileExists(atPath: feed.controlSocket)
        }
        #expect(feed.controlSocket.hasPrefix(feed.directory + "/gpsfake-"))
        let group = feed.process.processIdentifier
        #expect(LiveHarness.Feed.liveMembers(ofGroup: group))
        feed.stop()
        // Nothing waited for after stop(): it returned once all of it was gone.
        #expect(!LiveHarness.Feed.liveMembers(ofGroup: group), "gpsd or gpsfake still running")
        #expect(!LiveHarness.onLoopback(port, connect), "gpsd's port still accepts")
        #expect(!FileManager.default.fileExists(atPath: feed.directory), "the feed's directory is left")
        #expect(LiveHarness.onLoopback(port, bind), "the port is free for the next gpsd")
    }
}
