import Foundation
import Synchronization
import Testing

extension LiveHarness {
    /// gpsfake, playing logs once into a real gpsd on `port`, owning what it makes: a directory
    /// of its own as its TMPDIR (gpsfake's control socket, `gpsfake-<pid>.sock`, follows TMPDIR,
    /// so a reused PID never finds another run's socket), its stderr and gpsd's kept there, and
    /// a process group of its own, so that `stop()` ends gpsd and gpsfake together and waits for
    /// both.
    final class Feed {
        /// gpsfake (its current start: see `init`).
        private(set) var process = Process()
        let port: Int
        /// gpsfake's TMPDIR, removed by `stop()`.
        let directory: String
        private let errorFile: String
        private let stopped = Mutex(false)

        /// gpsfake's gpsd control socket (`+PATH` adds a device, `-PATH` removes it).
        var controlSocket: String { directory + "/gpsfake-\(process.processIdentifier).sock" }

        convenience init(log: String, port: Int, cycle: Double = 0.004) throws {
            try self.init(logs: [log], port: port, cycle: cycle)
        }

        /// Several logs at once: one pty, one receiver, each. Returns once gpsd on `port`
        /// lists a receiver; throws, with gpsfake's stderr, when gpsfake exits first.
        init(logs: [String], port: Int, cycle: Double = 0.004) throws {
            self.port = port
            var template = Array(
                ((ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/gpstrackd-feed-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            directory = String(cString: made)
            errorFile = directory + "/stderr"
            _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
            Feed.logs.withLock { $0.append((Test.current?.id, port, errorFile)) }
            // gpsd accepts on its port as soon as gpsfake has started it, but gpsfake adds its
            // receivers only once it has read its logs (seconds for a long log on a loaded
            // machine): a daemon that connected in between heard nothing for its
            // no_data_timeout_s and said "no report", which a test took for the feed's end (the
            // export day's and LiveTripTests' daemons found no trip beside make test-repeat's
            // CPU hog). Started means gpsd lists a receiver. gpsfake exiting first is a failure
            // of the feed, not of the code under test; 120 s is a referee.
            // gpsfake adds its ptys through gpsd's control socket once that socket's file
            // exists, and drops the add silently when the connect is refused (gps/fake.py,
            // add_device): a gpsd starved between its bind() and listen() then runs with no
            // receiver for ever (two hunt runs' "listed no receiver within 120 s"). Such a start
            // is ended and made again, twice at most, and the retry written to its stderr.
            for attempt in 1...3 {
                try start(logs: logs, cycle: cycle)
                let last = attempt == 3
                let deadline = Date().addingTimeInterval(last ? 120 : 45)
                var listed = false
                while !listed {
                    listed = Feed.listsReceiver(port: port)
                    if listed { break }
                    if !process.isRunning || (last && Date() > deadline) {
                        let why = process.isRunning ? "gpsd listed no receiver within 120 s" : "gpsfake exited"
                        let text = Feed.tail(errorFile)
                        stop()
                        throw FeedFailed(port: port, why: why, stderr: text)
                    }
                    if Date() > deadline { break }
                    usleep(20_000)  // polls the condition above
                }
                if listed { return }
                end()
                if let note = "--- no receiver in 45 s: gpsfake started again ---\n".data(using: .utf8),
                    let h = FileHandle(forWritingAtPath: errorFile)
                {
                    h.seekToEndOfFile()
                    h.write(note)
                    h.closeFile()
                }
                process = Process()
            }
        }

        /// Starts gpsfake: a session of its own (gpsd, gpsfake's child, joins its process
        /// group), signals unblocked (a Swift worker thread's blocked SIGTERM would pass on to
        /// gpsd), its stderr appended to the feed's.
        private func start(logs: [String], cycle: Double) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments =
                [
                    "-c",
                    """
                    import os, signal, sys
                    signal.pthread_sigmask(signal.SIG_SETMASK, [])
                    try: os.setsid()
                    except OSError: pass  # already a session's leader: its group is its own
                    os.execv(sys.argv[1], sys.argv[1:])
                    """,
                    // -W: gpsfake gives up on a gpsd that has not read a finished log in 60 s
                    // ("Test timed out: maybe increase WRITE_PAD"), as a starved one beside
                    // make test-repeat's CPU hog did; 600 s is a referee, stop() ends it.
                    "/usr/bin/gpsfake", "-q", "-1", "-W", "600", "-P", String(port), "-c", String(cycle),
                ] + logs
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": directory]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            let err = FileHandle(forWritingAtPath: errorFile)
            err?.seekToEndOfFile()
            process.standardError = err
            try process.run()
        }

        /// Whether gpsd on `port` accepts and, asked to watch, names a receiver (a DEVICES list
        /// or a DEVICE notice with a path) within a second.
        static func listsReceiver(port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { return false }
            let watch = Array(#"?WATCH={"enable":true,"json":true};"#.utf8)
            guard watch.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == watch.count else { return false }
            var text: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let until = Date().addingTimeInterval(1)
            while Date() < until, text.count < 1 << 20 {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 100) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { return false }
                text += buffer[0..<n]
                if String(decoding: text, as: UTF8.self).contains(#""path":""#) { return true }
            }
            return false
        }

        /// Kills gpsfake and its gpsd (as a crash would), waits until both have ended (gpsd no
        /// longer holds its port when this returns), and removes gpsfake's directory.
        func stop() {
            guard
                stopped.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            end()
            Feed.logs.withLock { logs in
                for k in logs.indices where logs[k].file == errorFile {
                    logs[k].file = "(stopped) " + Feed.tail(errorFile)
                }
            }
            do {
                try FileManager.default.removeItem(atPath: directory)
            } catch {
                Issue.record("the feed's directory \(directory) is left: \(error)")
            }
        }

        /// Kills gpsfake and its gpsd and waits until both have ended.
        private func end() {
            let group = process.processIdentifier
            guard group > 0 else { return }  // never started
            kill(-group, SIGKILL)
            kill(group, SIGKILL)  // in case it was stopped before it made its group
            process.waitUntilExit()
            // gpsd, orphaned, may stay a zombie (nobody need reap it): a zombie holds no port.
            let deadline = Date().addingTimeInterval(30)
            while Feed.liveMembers(ofGroup: group) && Date() < deadline { usleep(10_000) }
        }

        deinit { stop() }

        struct FeedFailed: Error, CustomStringConvertible {
            var port: Int
            var why: String
            var stderr: String
            var description: String { "gpsfake on port \(port): \(why); its stderr:\n\(stderr)" }
        }

        /// Each feed's test, port and stderr (its file while it runs, the text once stopped).
        private static let logs = Mutex<[(test: Test.ID?, port: Int, file: String)]>([])

        /// The stderr of gpsfake and gpsd of each feed the current test started, for its
        /// failure message (`LiveHarness.Timeout`).
        static func logsOfCurrentTest() -> String {
            let id = Test.current?.id
            return logs.withLock { logs in
                logs.filter { id != nil && $0.test == id }.map { entry in
                    let text =
                        entry.file.hasPrefix("(stopped) ")
                        ? String(entry.file.dropFirst("(stopped) ".count)) : tail(entry.file)
                    return "\n--- gpsfake and gpsd on port \(entry.port), stderr ---\n" + text
                }.joined()
            }
        }

        /// The last 4000 characters of `file`.
        static func tail(_ file: String) -> String {
            String(((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").suffix(4000))
        }

        /// Whether a process of group `group` has not ended yet (a zombie has).
        static func liveMembers(ofGroup group: Int32) -> Bool {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.contains { name in
                guard Int32(name) != nil,
                    let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { return false }
                // After the command's closing parenthesis: state, ppid, pgrp, ...
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return fields.count > 2 && fields[2] == "\(group)" && fields[0] != "Z" && fields[0] != "X"
            }
        }
    }
}
