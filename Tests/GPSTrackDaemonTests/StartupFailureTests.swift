import Foundation
import Testing

/// The exit codes gpstrackd(8) documents for what stops it at start (73 the control socket,
/// 74 a replay's output, 78 the MQTT TLS files), each made to happen for real, and where
/// `--log auto` sends the entry saying so.
@Suite(.serialized) struct StartupFailureTests {
    /// A fresh directory of this test process's own.
    static func directory(_ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "gpstrackd-startup-\(getpid())-\(name)"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The daemon's arguments with its own state directory and no gpsd to reach (port 1
    /// refuses): it gets as far as its control socket.
    static func daemon(_ dir: String, socket: String, log: String = "stderr") -> [String] {
        ["--log", log, "--state-dir", dir + "/state", "--socket", socket, "--gpsd", "127.0.0.1:1"]
    }

    /// The daemon run to its exit, under timeout(1) as a referee: a daemon that should have
    /// exited at start (in well under a second) and runs on is killed after 60 s (status 137).
    static func exits(_ arguments: [String]) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run(
            ["-s", "KILL", "60", ExecutableRunner.binary] + arguments, executable: "/usr/bin/timeout")
    }

    @Test func aControlSocketThatCannotBeMadeExits73NamingIt() throws {
        let dir = try Self.directory("73")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/plain"
        try "not a directory".write(toFile: file, atomically: true, encoding: .utf8)
        // Its directory cannot be created (a file is in the way), and a path that is no socket.
        for (socket, reason) in [
            (file + "/sub/ctl.sock", "control socket \(file)/sub/ctl.sock: cannot create \(file)/sub: Not a directory"),
            (file, "control socket \(file): exists and is not a socket"),
        ] {
            let r = try Self.exits(Self.daemon(dir, socket: socket))
            #expect(r.status == 73, "\(socket): \(r.stderr)")
            #expect(r.stderr.contains("Cannot start: ") && r.stderr.contains(reason), "\(r.stderr)")
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "not a directory", "the file is left alone")
    }

    @Test func anotherDaemonOnTheSocketExits73AndKeepsIt() throws {
        let dir = try Self.directory("73-other")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socket = dir + "/ctl.sock"
        for d in ["first", "second"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + d, withIntermediateDirectories: true)
        }
        let first = Process()
        LiveHarness.unmasked(first, ExecutableRunner.binary, Self.daemon(dir + "/first", socket: socket))
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer {
            first.terminate()
            first.waitUntilExit()
        }
        try LiveHarness.waitFor("the first daemon's socket", timeout: 30) { (try? SocketClient(path: socket)) != nil }
        let second = try Self.exits(Self.daemon(dir + "/second", socket: socket))
        #expect(second.status == 73, "\(second.stderr)")
        #expect(
            second.stderr.contains("control socket \(socket): another gpstrackd is listening on it"), "\(second.stderr)"
        )
        // The first one still answers on it: the second removed nothing.
        let client = try SocketClient(path: socket)
        client.send("{\"cmd\":\"status\"}\n")
        let status = try #require(client.request(#"{"cmd":"status"}"#), "the first daemon answers")
        #expect(status["ok"] as? Bool == true, "\(status)")
    }

    /// `--log auto` with journald listening: the entry is in the journal, not on stderr; with
    /// the journal's socket hidden (a mount namespace with an empty tmpfs over its directory):
    /// on stderr, not in the journal.
    @Test(.needs([.journal, .root, .tool("/usr/bin/unshare", package: "util-linux")]))
    func logAutoChoosesTheJournalWhenItsSocketIsThere() throws {
        try LiveHarness.ensureJournald()
        let dir = try Self.directory("auto")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A socket path that cannot be made, unique to the run, so its entry is found by text.
        let blocker = dir + "/blocker-\(UInt32.random(in: 0..<UInt32.max))"
        try "".write(toFile: blocker, atomically: true, encoding: .utf8)
        func entries(since: Date) throws -> [String] {
            try LiveHarness.journal(["SYSLOG_IDENTIFIER=gpstrackd"], since: since)
                .compactMap { $0["MESSAGE"] as? String }.filter { $0.contains(blocker) }
        }
        let since = Date()
        let withJournal = try Self.exits(Self.daemon(dir, socket: blocker + "/a.sock", log: "auto"))
        #expect(withJournal.status == 73)
        #expect(!withJournal.stderr.contains("Cannot start"), "nothing on stderr: \(withJournal.stderr)")
        try LiveHarness.waitFor("the entry in the journal", timeout: 30) { try entries(since: since).count == 1 }

        let hidden = try ExecutableRunner.run(
            [
                "-s", "KILL", "60", "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                "mount -t tmpfs none /run/systemd/journal && exec \"$0\" \"$@\"", ExecutableRunner.binary,
            ] + Self.daemon(dir, socket: blocker + "/b.sock", log: "auto"), executable: "/usr/bin/timeout")
        #expect(hidden.status == 73, "\(hidden.stderr)")
        #expect(
            hidden.stderr.contains("Cannot start: ") && hidden.stderr.contains(blocker + "/b.sock"), "\(hidden.stderr)")
        // A third, told to use the journal, is waited for: entries arrive in order, so one from
        // the second would be there by then.
        let third = try Self.exits(Self.daemon(dir, socket: blocker + "/c.sock", log: "journal"))
        #expect(third.status == 73)
        try LiveHarness.waitFor("the third entry", timeout: 30) { try entries(since: since).count >= 2 }
        let all = try entries(since: since)
        #expect(all.count == 2 && !all.contains { $0.contains("b.sock") }, "not in the journal: \(all)")
    }

    @Test func aReplayWhoseOutputCannotBeWrittenExits74() throws {
        let dir = try Self.directory("74")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = try ExecutableRunner.temporaryFile("full-\(getpid()).json", contents: GPSDLogHeader.text)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExecutableRunner.binary)
        process.arguments = ["replay", log]
        // A real device that refuses every write (ENOSPC).
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74, "\(stderr)")
        #expect(stderr.contains("gpstrackd: replay of \(log) failed: "), "\(stderr)")
        #expect(stderr.contains("No space left on device"), "the reason, as the system gave it: \(stderr)")
    }

    @Test(.needs(Need.mosquitto)) func mqttTLSFilesThatCannotServeExit78NamingTheKey() throws {
        let dir = try Self.directory("78")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pem = dir + "/some.pem"
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: pem, atomically: true, encoding: .utf8)
        for (lines, key, problem) in [
            ("mqtt_ca_file = \(dir)/missing-ca.pem\n", 2, "mqtt_ca_file \(dir)/missing-ca.pem: cannot read"),
            ("mqtt_ca_file = \(pem)\nmqtt_cert_file = \(pem)\n", 3, "mqtt_cert_file and mqtt_key_file go together"),
            ("mqtt_ca_file = \(pem)\nmqtt_key_file = \(pem)\n", 3, "mqtt_cert_file and mqtt_key_file go together"),
            ("mqtt_cert_file = \(pem)\nmqtt_key_file = \(pem)\n", 2, "mqtt_cert_file needs mqtt_ca_file"),
            ("mqtt_ca_file = /dev/zero\n", 2, "mqtt_ca_file /dev/zero: cannot read"),
        ] {
            let conf = dir + "/tls-\(key)-\(problem.count).conf"
            try ("mqtt_host = 127.0.0.1\n" + lines).write(toFile: conf, atomically: true, encoding: .utf8)
            let r = try Self.exits(["--config", conf] + Self.daemon(dir, socket: dir + "/ctl.sock"))
            #expect(r.status == 78, "\(lines): \(r.stderr)")
            #expect(r.stderr.contains("\(conf):\(key): \(problem)"), "\(lines): \(r.stderr)")
        }
    }
}
