import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim

/// Real parts for the live daemon's tests: systemd-journald (started when no journal socket
/// exists), gpsd through gpsfake on a free port, and the built daemon.
enum LiveHarness {
    static let journalSocket = "/run/systemd/journal/socket"
    static let journaldBinary = "/lib/systemd/systemd-journald"
    /// Suites start in parallel, in several processes (`make test`'s shards); one of them
    /// starts journald: the lock within a process, a file lock between them (in /run, beside
    /// journald's socket: the file outlives the run, and make test leaves nothing in /tmp).
    private static let journaldLock = NSLock()
    static let journaldLockFile = "/run/gpstrackd-tests-journald.lock"

    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/journalctl")
            && (FileManager.default.fileExists(atPath: journalSocket)
                || FileManager.default.isExecutableFile(atPath: journaldBinary))
    }

    /// Starts systemd-journald when no journald listens on the journal socket, and waits until
    /// one does. A socket file alone proves nothing: a journald that was killed leaves its
    /// socket behind, and datagrams sent to it are refused.
    static func ensureJournald() throws {
        journaldLock.lock()
        defer { journaldLock.unlock() }
        if journaldListening() { return }
        let fd = open(journaldLockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LockFailed(path: journaldLockFile, errno: errno) }
        defer { close(fd) }  // closing the descriptor releases the lock
        guard flock(fd, LOCK_EX) == 0 else { throw LockFailed(path: journaldLockFile, errno: errno) }
        if journaldListening() { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: journaldBinary)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        try waitFor("journald's socket", timeout: 20) { journaldListening() }
    }

    /// Whether a process accepts datagrams on the journal socket (connect(2) is refused on a
    /// socket file nobody has bound).
    static func journaldListening() -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in journalSocket.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return rc == 0
    }

    struct LockFailed: Error, CustomStringConvertible {
        var path: String
        var errno: Int32
        var description: String { "cannot lock \(path): \(String(cString: strerror(errno)))" }
    }

    struct Timeout: Error, CustomStringConvertible {
        var what: String
        /// The stderr of the test's gpsfake and gpsd (`Feed`), taken when it timed out.
        var feeds = Feed.logsOfCurrentTest()
        init(what: String) { self.what = what }
        var description: String { "timed out waiting for \(what)" + feeds }
    }

    /// Polls `condition` until it holds; a condition that never holds fails the test (the
    /// timeout only bounds a hang, it measures nothing).
    static func waitFor(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return }
            usleep(100_000)  // polls the condition
        }
        throw Timeout(what: what)
    }

    /// Starts a listener on `port` that hangs up on every connection at once (a gpsd whose every
    /// connect fails), writing each accept's monotonic time, a line each, to `file`. Its stderr
    /// is not the run's: a listener left behind would hold the run's output open. The caller
    /// stops it on every way out.
    static func hangingListener(port: Int, file: String) throws -> Process {
        let listener = Process()
        unmasked(
            listener, "/usr/bin/python3",
            [
                "-c",
                """
                import socket, sys, time
                s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8)
                while True:
                    c, _ = s.accept(); c.close(); print(time.monotonic(), flush=True)
                """, String(port),
            ])
        listener.standardOutput = FileHandle(forWritingAtPath: file)
        listener.standardError = FileHandle.nullDevice
        try listener.run()
        return listener
    }

    /// Processes started from Swift's worker threads inherit their blocked signals (SIGTERM
    /// among them); this runs `path` through a Python shim that unblocks every signal first, so
    /// the program can be stopped as its users stop it.
    static func unmasked(_ process: Process, _ path: String, _ arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [
                "-c",
                "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
                path,
            ] + arguments
    }

    /// Journal entries matching `matches` (journalctl's FIELD=value terms) written since
    /// `since`, as JSON objects. A PID alone does not name a process: the journal outlives
    /// test runs and PIDs wrap, so entries of an earlier process with the same PID would match.
    static func journal(_ matches: [String], since: Date) throws -> [[String: Any]] {
        let start = "@\(Int(since.timeIntervalSince1970) - 1)"
        return try ExecutableRunner.run(
            ["-o", "json", "--no-pager", "--since", start] + matches, executable: "/usr/bin/journalctl"
        )
        .lines.compactMap(ExecutableRunner.json)
    }

    /// A loopback TCP port for a test's gpsd, broker or HTTP server, reserved across processes
    /// until this test process ends (`TestPorts`).
    static func freePort() -> Int { TestPorts.draw() }

    /// Whether `call` (bind or connect) succeeds on a fresh TCP socket for 127.0.0.1:`port`.
    static func onLoopback(_ port: Int, _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                call(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// The local ends of process `pid`'s TCP connects under way (SYN_SENT, state 02 in its
    /// network namespace's /proc/PID/net/tcp) to `remote`, as the kernel prints it
    /// (little-endian hex address, hex port: 192.0.2.10:1883 is `0A0200C0:075B`). A new local
    /// end is a new attempt.
    static func connectsUnderWay(_ pid: Int32, to remote: String) -> Set<String> {
        let table = (try? String(contentsOfFile: "/proc/\(pid)/net/tcp", encoding: .utf8)) ?? ""
        return Set(
            table.split(separator: "\n").compactMap { line in
                let f = line.split(separator: " ")
                return f.count > 3 && f[2] == remote && f[3] == "02" ? String(f[1]) : nil
            })
    }

    /// Epochs without a fix that outlast the daemon's longest wait between gpsd connects (30 s,
    /// `ReconnectBackoff`) at a feed's 0.01 s cycle: three sentences each, about 48 s, longer
    /// on a loaded machine (gpsfake only ever falls behind). A daemon refused before its feed
    /// started is connected before the fixes come.
    static let epochsPastBackoff = 1200

    /// Epochs without a fix that last `seconds` at least at a feed's `cycle` (three sentences
    /// each; gpsfake only ever falls behind): a padding that a process started beside the feed
    /// (a daemon, a `TPVRecorder`) is sure to outlast.
    static func epochs(lasting seconds: Double, cycle: Double) -> Int { Int((seconds / (3 * cycle)).rounded(.up)) }

    /// An NMEA log of `fixes` after `padding` seconds without a fix (gpsd needs a moment
    /// to find the receiver; the daemon may connect a little after the feed starts).
    static func nmeaFile(_ name: String, fixes: [Fix], padding: Int = 60) throws -> String {
        var lines = ["# gpstrackd test route"]
        let t0 = fixes.first?.time ?? 1_773_475_200
        for k in stride(from: padding, to: 0, by: -1) {
            lines += NMEAWriter.sentences(Fix(mode: 1, time: t0 - Double(k)))
        }
        for f in fixes where f.mode != 2 { lines += NMEAWriter.sentences(f) }
        return try ExecutableRunner.temporaryFile(name, contents: lines.joined(separator: "\n") + "\n")
    }

    /// The built daemon, logging to the journal.
    final class DaemonProcess {
        let process = Process()
        var pid: Int32 { process.processIdentifier }
        /// When the process was started; its journal entries are looked for from then on.
        let started = Date()

        /// The daemon's control socket.
        let socketPath: String

        /// Runs the daemon with a config that notices the end of a feed after 2 s without data
        /// (plus `extraConfig` lines), and a control socket of its own; `environment` is added
        /// to the tests' own.
        /// The daemon's state directory (its SQLite database).
        let stateDirectory: String

        init(
            arguments: [String], extraConfig: String = "", stateDirectory: String? = nil,
            environment: [String: String] = [:]
        ) throws {
            // The daemon logs to the journal: a suite that ran first in its shard found none.
            try LiveHarness.ensureJournald()
            let name = "live-\(UInt32.random(in: 0..<UInt32.max))"
            let conf = try ExecutableRunner.temporaryFile(
                "\(name).conf", contents: "no_data_timeout_s = 2\n" + extraConfig)
            socketPath = conf.replacingOccurrences(of: ".conf", with: ".sock")
            self.stateDirectory = stateDirectory ?? conf.replacingOccurrences(of: ".conf", with: ".state")
            process.executableURL = URL(fileURLWithPath: ExecutableRunner.binary)
            process.arguments =
                ["--config", conf, "--log", "journal", "--socket", socketPath, "--state-dir", self.stateDirectory]
                + arguments
            if !environment.isEmpty {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func signal(_ s: Int32) { kill(process.processIdentifier, s) }

        /// SIGTERM, then the exit status.
        func stop() -> Int32 {
            if process.isRunning { signal(SIGTERM) }
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// Whether journald was asked to read everything after the daemon's exit.
        private var syncedAfterExit = false

        /// The daemon's journal entries so far, as journalctl's JSON. Once the daemon has exited,
        /// journald is first asked to read all it was sent (`journalctl --sync`): it reads its
        /// socket in its own time, and under load the stop's last entries were not there yet
        /// (the hunt's SmallDiskTests, `storage_at_stop`).
        func entries() throws -> [[String: Any]] {
            if !process.isRunning, !syncedAfterExit {
                _ = try ExecutableRunner.run(["--sync"], executable: "/usr/bin/journalctl")
                syncedAfterExit = true
            }
            return try LiveHarness.journal(["_PID=\(pid)"], since: started)
        }

        func entries(_ event: String, containing text: String? = nil) throws -> [[String: Any]] {
            try entries().filter { entry in
                guard entry["GPSTRACK_EVENT"] as? String == event else { return false }
                guard let text else { return true }
                return (entry["MESSAGE"] as? String)?.contains(text) == true
            }
        }

        func waitFor(_ event: String, containing text: String? = nil, count: Int = 1, timeout: Double = 60) throws {
            try LiveHarness.waitFor("\(count) '\(event)' entries", timeout: timeout) {
                try entries(event, containing: text).count >= count
            }
        }

        deinit { _ = stop() }
    }
}

extension LiveHarness {
    /// The daemon in a network namespace of its own (`unshare --net`) with `addresses` on its
    /// loopback and everything sent to `dropped` dropped by nftables, as a dead link or
    /// systemd's cgroup filter drops it: a TCP connect there neither succeeds nor fails.
    /// `extraSetup` runs after (shell commands). `hosts`, when given, is the namespace's
    /// /etc/hosts (a bind mount in a mount namespace of its own too), for names the daemon
    /// resolves. Logs to the journal; returns the started process, its stderr and when it started.
    static func daemonInNetworkNamespace(
        config: String, addresses: [String], dropped: String,
        extraSetup: [String] = [], hosts: String? = nil
    ) throws -> (Process, Pipe, Date) {
        let dir = config.replacingOccurrences(of: ".conf", with: "")
        var mounts: [String] = []
        if let hosts {
            let file = try ExecutableRunner.temporaryFile(
                (dir as NSString).lastPathComponent + ".hosts", contents: hosts)
            mounts = ["mount --bind \(file) /etc/hosts"]
        }
        let setup =
            (mounts + ["ip link set lo up"] + addresses.map { "ip addr add \($0)/32 dev lo" } + [
                "nft add table inet gpstrackd_test",
                "nft 'add chain inet gpstrackd_test out { type filter hook output priority 0; }'",
                "nft add rule inet gpstrackd_test out ip daddr \(dropped) drop",
            ] + extraSetup).joined(separator: " && ")
        let process = Process()
        unmasked(
            process, "/usr/bin/unshare",
            (hosts == nil ? ["--net"] : ["--net", "--mount"]) + [
                "/bin/sh", "-c", setup + " && exec \"$0\" \"$@\"", ExecutableRunner.binary,
                "--config", config, "--log", "journal", "--socket", dir + ".sock", "--state-dir", dir + ".state",
            ])
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let started = Date()
        try process.run()
        return (process, errors, started)
    }
}
