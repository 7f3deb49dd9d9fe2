import Foundation
import Testing
import GPSTrackCore
import GPSTrackSim

/// A nearly full disk (issue 30): the state directory on a tmpfs of a few hundred KiB, where the
/// database's own growth (track points, the write-ahead log) fills what little space there is.
/// Events must still be stored, the oldest track points giving way, counted.
@Suite(.serialized, .enabled(if: LiveHarness.available && getuid() == 0, "mounting a tmpfs needs root; `make test` runs as root in CI"))
struct SmallDiskTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// The stored enter/exit events (`event fence`, by seq), `PRAGMA integrity_check`, and the
    /// count of track points before `before` (fix time), through Python's sqlite3 module.
    static func stored(_ db: String, pointsBefore before: Double = 0) throws -> (integrity: String, transitions: [String], old: Int) {
        let r = try ExecutableRunner.run(["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute('PRAGMA integrity_check').fetchone()[0])
            print(db.execute('SELECT count(*) FROM points WHERE time < ?', (float(sys.argv[2]),)).fetchone()[0])
            for e, f in db.execute("SELECT event, fence FROM events WHERE event IN ('enter', 'exit') ORDER BY seq"): print(e, f)
            """, db, String(before)], executable: "/usr/bin/python3")
        let lines = r.lines
        guard lines.count >= 2, let old = Int(lines[1]) else { return (r.stdout + r.stderr, [], -1) }
        return (lines[0], Array(lines.dropFirst(2)), old)
    }

    /// The walk of FullDiskTests (four fences, eight transitions) into a daemon whose state
    /// directory is on `disk`; `during` runs once the feed started. Returns the daemon, the walk
    /// over (gpsd's end noticed), still running.
    static func walk(_ name: String, on disk: FullDiskTests.SmallDisk, stateDirectory: String,
                     during: (LiveHarness.DaemonProcess) throws -> Void) throws -> LiveHarness.DaemonProcess {
        let trace = LiveDaemonTests.walk(seconds: 560, seed: 16)
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: trace.fixes, padding: 100)
        let port = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences",
                                                               try FullDiskTests.fencesFile("\(name).geojson")],
                                                   stateDirectory: stateDirectory)
        try daemon.waitFor("started", timeout: 20)
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.01)
        defer { feed.stop() }
        try during(daemon)
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 120)
        return daemon
    }

    /// The issue's case: 256 KiB, filled before the first fix, freed after the first two
    /// transitions. The code before stored 1 of the 8 (the database's own growth, a WAL let grow
    /// towards 4 MiB, filled the disk again 0.6 s after the space returned).
    @Test func aSmallDiskFreedMidWalkKeepsEveryEvent() throws {
        let disk = try FullDiskTests.SmallDisk(kib: 256)
        let state = disk.path + "/state"
        var freed = 0
        let daemon = try Self.walk("smalldisk", on: disk, stateDirectory: state) { daemon in
            #expect(disk.fill() > 0)
            try daemon.waitFor("storage_degraded", timeout: 60)
            try LiveHarness.waitFor("two transitions while full", timeout: 60) { try FullDiskTests.transitions(daemon).count >= 2 }
            disk.free()
            freed = try FullDiskTests.transitions(daemon).count
        }
        let status = try #require(SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        #expect(daemon.stop() == 0)
        let entries = try daemon.entries().filter { ($0["GPSTRACK_EVENT"] as? String ?? "").hasPrefix("storage") }
        print("small disk: freed after \(freed) transitions; storage entries: "
              + entries.map { "\($0["GPSTRACK_EVENT"] ?? "") (\($0["MESSAGE"] ?? ""))" }.joined(separator: "; "))
        print("small disk: status storage \(status["storage"] ?? "-")")
        let (integrity, transitions, _) = try Self.stored(state + "/gpstrackd.db")
        print("small disk: \(transitions.count) of 8 transitions stored; integrity \(integrity)")
        #expect(integrity == "ok")
        #expect(transitions == FullDiskTests.expected, "every true enter/exit stored once, in order")
        #expect(try daemon.entries("storage_unwritten").isEmpty, "nothing left unwritten at the stop")
    }
}
