import GPSTrackCore
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The control socket: a Unix stream socket, one JSON request per line and one JSON response
/// per line, served by one thread with `poll`. Requests are checked here (size, JSON, command,
/// fields, the peer's rights) and handed to the tracker as an `AsyncStream`; responses and
/// `watch` events come back through `reply` and `broadcast`. A slow or hostile client can cost
/// the daemon nothing but its own connection.
public final class ControlServer: Sendable {
    /// A checked request from a client.
    public struct Incoming: Sendable {
        public var client: Int
        public var request: ControlRequest
    }

    /// The socket could not be set up.
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    struct Client {
        var fd: Int32
        var peer: PeerCredentials?
        var inbuf: [UInt8] = []
        var outbuf: [UInt8] = []
        var lastActivity: Double
        var busy = false
        var watching = false
        var closing = false
    }

    /// Most bytes of requests a client may have waiting while one of its requests is busy or
    /// its replies are unread: beyond it the server stops reading from it, and the kernel's
    /// socket buffer stops the client (two longest lines; a pipelined burst fits).
    static let maxWaitingInput = 2 * ControlRequest.maxLineBytes
    /// Unread reply bytes beyond which a client's next request waits (its reply would pile up).
    static let maxUnreadOutput = 1 << 20

    public let path: String
    let config: Configuration
    let journal: Journal
    let adminGID: gid_t?
    let listenFD: Int32
    /// The serving thread, its stop flag and the wake pipe that also brings it replies.
    let worker: StoppableThread
    /// What the tracker hands the server's thread: the one piece of state both sides touch
    /// (clients live in the thread's own `serve` loop).
    struct Shared {
        var replies: [Outgoing] = []
        var broadcasts: [String] = []
        /// The writers of streamed replies whose part waits in `replies` (see `replyPart`).
        var writers: [Int: CheckedContinuation<Bool, Never>] = [:]
        /// Set when the serving thread has ended: a streamed reply's next part finds no client.
        var stopped = false
    }
    /// A reply, or a part of a streamed one, on its way to a client.
    struct Outgoing {
        var client: Int
        var text: String
        /// The client watches from then on.
        var watch = false
        /// The line ends here and the client's next request may go (not so for a part).
        var ends = true
    }
    let shared = Synchronization.Mutex(Shared())

    public init(path: String, config: Configuration, journal: Journal) throws(SetupError) {
        self.path = path
        self.config = config
        self.journal = journal
        adminGID = config.adminGroup.flatMap(PeerCredentials.groupID)
        do throws(ErrnoError) { worker = try StoppableThread() } catch { throw SetupError(description: "\(error)") }
        listenFD = try Self.listen(path: path, group: config.socketGroup, journal: journal)
    }

    /// Starts serving; checked requests arrive on the stream.
    public func start() -> AsyncStream<Incoming> {
        worker.stream { [self] in serve($0) }
    }

    /// Closes every connection and the socket, and removes the socket file.
    public func stop() async { await worker.stop() }

    /// Sends a response line to a client; with `watch`, the client receives events from then on.
    public func reply(client: Int, line: String, watch: Bool = false) {
        shared.withLock { $0.replies.append(Outgoing(client: client, text: line, watch: watch)) }
        worker.wake()
    }

    /// Sends a part of a streamed reply's line (the client stays busy until `endReply`), and
    /// returns once the client has read enough that less than `maxUnreadOutput` waits for it:
    /// the writer makes its next part only then, so a reply of any size costs the daemon a
    /// part and that bound. False when the client is gone (or the server stopped): make no more.
    public func replyPart(client: Int, _ text: String) async -> Bool {
        await withCheckedContinuation { (writer: CheckedContinuation<Bool, Never>) in
            let queued = shared.withLock { s in
                guard !s.stopped else { return false }
                s.replies.append(Outgoing(client: client, text: text, ends: false))
                s.writers[client] = writer
                return true
            }
            if queued { worker.wake() } else { writer.resume(returning: false) }
        }
    }

    /// Ends a streamed reply's line: its client's next request may go.
    public func endReply(client: Int) { reply(client: client, line: "") }

    /// Sends an event line to every `watch` client.
    public func broadcast(_ line: String) {
        shared.withLock { $0.broadcasts.append(line) }
        worker.wake()
    }

    // MARK: setup

    static func listen(path: String, group: String, journal: Journal) throws(SetupError) -> Int32 {
        func fail(_ what: String) -> SetupError {
            SetupError(description: "control socket \(path): \(what): \(String(cString: strerror(errno)))")
        }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            throw SetupError(description: "control socket \(path): path too long")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let dir = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        if !dir.isEmpty, access(dir, F_OK) != 0, mkdir(dir, 0o750) != 0 { throw fail("cannot create \(dir)") }

        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw SetupError(description: "control socket \(path): exists and is not a socket")
            }
            // A socket someone answers on belongs to a running daemon; a dead one is stale.
            let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let alive =
                withUnsafePointer(to: &addr) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                } == 0
            close(probe)
            if alive { throw SetupError(description: "control socket \(path): another gpstrackd is listening on it") }
            unlink(path)
        }
        let fd: Int32
        do throws(ErrnoError) {
            fd = try syscall("socket") {
                socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
        } catch {
            throw SetupError(description: "control socket \(path): \(error)")
        }
        do throws(ErrnoError) {
            try syscall("bind") {
                withUnsafePointer(to: &addr) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
            // Not world-accessible: owner and group only.
            try syscall("chmod") { chmod(path, 0o660) }
            var made = stat()
            if let gid = PeerCredentials.groupID(group), stat(path, &made) == 0, made.st_gid == gid {
                // Already the socket's group (the unit's Group=): no chown, which the unit's
                // system call filter refuses.
            } else if let gid = PeerCredentials.groupID(group) {
                do throws(ErrnoError) {
                    try syscall("chown") { chown(path, UInt32.max, gid) }
                } catch {
                    journal.log(
                        LogEntry(
                            event: .socketGroup, priority: .warning,
                            message: "Control socket \(path) not given to group \(group): \(error)"))
                }
            } else {
                journal.log(
                    LogEntry(
                        event: .socketGroup, priority: .info,
                        message: "Group \(group) does not exist; control socket \(path) keeps the daemon's group"))
            }
            try syscall("listen") { Glibc.listen(fd, 256) }
            try syscall("fcntl") { fcntl(fd, F_SETFL, O_NONBLOCK) }
        } catch {
            close(fd)
            throw SetupError(description: "control socket \(path): \(error)")
        }
        return fd
    }

    // MARK: the loop

    func serve(_ requests: AsyncStream<Incoming>.Continuation) {
        var clients: [Int: Client] = [:]
        var nextID = 1
        // Streamed replies' writers whose part is in their client's buffer: each goes on once
        // the client has read it down (or is gone).
        var writers: [Int: CheckedContinuation<Bool, Never>] = [:]
        defer {
            for c in clients.values { close(c.fd) }
            close(listenFD)
            unlink(path)
            let left = shared.withLock { s in
                s.stopped = true
                defer { s.writers = [:] }
                return s.writers
            }
            for writer in Array(writers.values) + Array(left.values) { writer.resume(returning: false) }
        }
        while !worker.isStopping {
            let now = MonotonicClock.now()
            // Idle clients go; the poll waits only as long as the nearest idle deadline.
            var timeoutMs: Int32 = -1
            for (id, c) in clients where !c.watching {
                let left = config.idleTimeoutS - (now - c.lastActivity)
                if left <= 0 {
                    close(c.fd)
                    clients[id] = nil
                    continue
                }
                let ms = Int32(clamping: min(left * 1000, 3_600_000), rounding: .towardZero) + 1
                timeoutMs = timeoutMs < 0 ? ms : min(timeoutMs, ms)
            }
            var fds = [
                pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: worker.wakeFD, events: Int16(POLLIN), revents: 0),
            ]
            let order = Array(clients.keys)
            for id in order {
                let c = clients[id]!
                // A client whose input waits (busy, or its replies unread) is not read from: its
                // memory here stays bounded, and the kernel holds the rest against it.
                var ev = c.inbuf.count < Self.maxWaitingInput ? Int16(POLLIN) : 0
                if !c.outbuf.isEmpty { ev |= Int16(POLLOUT) }
                // Nothing wanted: left out of the poll (-1), so that a hang-up does not spin it.
                fds.append(pollfd(fd: ev == 0 ? -1 : c.fd, events: ev, revents: 0))
            }
            _ = try? syscall("poll") { poll(&fds, nfds_t(fds.count), timeoutMs) }

            if fds[1].revents != 0 { worker.drainWakes() }
            drainOutbox(&clients, &writers, requests)
            for (i, id) in order.enumerated() {
                let re = fds[i + 2].revents
                guard re != 0, clients[id] != nil else { continue }
                if re & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readFrom(id, &clients, requests) }
                if clients[id] != nil { flush(id, &clients) }
                // Replies read: requests that waited for room go on.
                if re & Int16(POLLOUT) != 0 { process(id, &clients, requests) }
            }
            if fds[0].revents & Int16(POLLIN) != 0 { accept(&clients, &nextID) }
            for (id, writer) in writers where (clients[id]?.outbuf.count ?? 0) < Self.maxUnreadOutput {
                writers[id] = nil
                writer.resume(returning: clients[id] != nil)
            }
        }
    }

    func accept(_ clients: inout [Int: Client], _ nextID: inout Int) {
        while true {
            guard let fd = try? syscall("accept", { Glibc.accept(listenFD, nil, nil) }) else { return }
            _ = try? syscall("fcntl") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = try? syscall("fcntl") { fcntl(fd, F_SETFL, O_NONBLOCK) }
            if clients.count >= config.maxClients {
                let line = Array(
                    (ControlError("too many clients (\(config.maxClients)); try again later").line + "\n").utf8)
                _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(fd)
                continue
            }
            clients[nextID] = Client(fd: fd, peer: PeerCredentials.of(fd), lastActivity: MonotonicClock.now())
            nextID += 1
        }
    }

    func readFrom(_ id: Int, _ clients: inout [Int: Client], _ requests: AsyncStream<Incoming>.Continuation) {
        guard var c = clients[id] else { return }
        let room = min(65536, Self.maxWaitingInput - c.inbuf.count)
        guard room > 0 || c.watching || c.closing else { return }
        var chunk = [UInt8](repeating: 0, count: max(room, 4096))
        let n: Int
        do {
            n = try syscall("recv") { chunk.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, 0) } }
        } catch {
            if error.code == EAGAIN || error.code == EWOULDBLOCK { return }
            n = 0
        }
        if n == 0 {
            // Hung up (or failed); a request cut off without its newline goes with it.
            close(c.fd)
            clients[id] = nil
            return
        }
        c.lastActivity = MonotonicClock.now()
        if c.watching || c.closing {
            clients[id] = c  // a watcher's input is ignored; a closing client's too
            return
        }
        c.inbuf.append(contentsOf: chunk[0..<n])
        clients[id] = c
        process(id, &clients, requests)
    }

    /// Handles the complete lines of a client, one request at a time.
    func process(_ id: Int, _ clients: inout [Int: Client], _ requests: AsyncStream<Incoming>.Continuation) {
        guard var c = clients[id] else { return }
        defer { clients[id] = c }
        while !c.busy && !c.closing && !c.watching && c.outbuf.count < Self.maxUnreadOutput {
            guard let nl = c.inbuf.firstIndex(of: 10) else {
                if c.inbuf.count > ControlRequest.maxLineBytes {
                    refuse(&c, "request longer than \(ControlRequest.maxLineBytes) bytes")
                }
                return
            }
            if nl > ControlRequest.maxLineBytes {
                refuse(&c, "request longer than \(ControlRequest.maxLineBytes) bytes")
                return
            }
            var line = c.inbuf[..<nl]
            c.inbuf.removeSubrange(...nl)
            if line.last == 13 { line = line.dropLast() }
            if line.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
            switch ControlRequest.parse(line) {
            case .failure(let e):
                enqueue(&c, e.line)
            case .success(let request):
                let name = Self.name(of: request)
                if CommandRights.socketNeedsAdmin(name), !(c.peer?.mayAdminister(adminGroup: adminGID) ?? false) {
                    let who = config.adminGroup.map { "root, the daemon's user or group \($0)" }
                    enqueue(
                        &c,
                        ControlError(
                            "permission denied: \(name.name) needs "
                                + (who ?? "root or the daemon's user (admin_group names a group that may too)")
                        ).line)
                    continue
                }
                c.busy = true
                requests.yield(Incoming(client: id, request: request))
            }
        }
    }
}
