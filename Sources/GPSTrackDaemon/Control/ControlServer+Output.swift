import GPSTrackCore
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The server's replies on their way out: per-client buffers, watchers' broadcasts, and
/// request names for the journal.
extension ControlServer {
    func refuse(_ c: inout Client, _ message: String) {
        enqueue(&c, ControlError(message).line)
        c.closing = true
        c.inbuf = []
    }

    func enqueue(_ c: inout Client, _ line: String) {
        c.outbuf.append(contentsOf: line.utf8)
        c.outbuf.append(10)
    }

    func drainOutbox(
        _ clients: inout [Int: Client], _ writers: inout [Int: CheckedContinuation<Bool, Never>],
        _ requests: AsyncStream<Incoming>.Continuation
    ) {
        let (replies, broadcasts, parked) = shared.withLock { s in
            defer {
                s.replies = []
                s.broadcasts = []
                s.writers = [:]
            }
            return (s.replies, s.broadcasts, s.writers)
        }
        // Taken with their parts: each writer waits for its own part to be read.
        writers.merge(parked) { _, new in new }
        for r in replies {
            guard var c = clients[r.client] else { continue }
            guard r.ends else {
                c.outbuf.append(contentsOf: r.text.utf8)
                clients[r.client] = c
                flush(r.client, &clients)
                continue
            }
            enqueue(&c, r.text)
            c.busy = false
            if r.watch {
                c.watching = true
                c.inbuf = []
            }
            clients[r.client] = c
            flush(r.client, &clients)
        }
        if !broadcasts.isEmpty {
            for id in Array(clients.keys) where clients[id]!.watching {
                // Line by line, so a client that reads keeps up with a burst; one that does
                // not fills the kernel's buffer and then this bounded queue.
                for line in broadcasts {
                    guard var c = clients[id] else { break }
                    enqueue(&c, line)
                    clients[id] = c
                    flush(id, &clients)
                    guard let w = clients[id], w.outbuf.count > config.watchQueueBytes else { continue }
                    journal.log(
                        LogEntry(
                            event: .watchDropped, priority: .notice,
                            message:
                                "Dropped a watch client (pid \(w.peer?.pid ?? 0)) that stopped reading: \(w.outbuf.count) bytes unread",
                            fields: [(.peerPid, String(w.peer?.pid ?? 0))]))
                    close(w.fd)
                    clients[id] = nil
                }
            }
        }
        // Requests that were waiting behind an answered one.
        for id in replies.filter(\.ends).map(\.client) where clients[id] != nil && !clients[id]!.busy {
            process(id, &clients, requests)
            flush(id, &clients)
        }
    }

    func flush(_ id: Int, _ clients: inout [Int: Client]) {
        guard var c = clients[id] else { return }
        while !c.outbuf.isEmpty {
            let n: Int
            do {
                n = try syscall("send") {
                    c.outbuf.withUnsafeBytes { send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                if error.code == EAGAIN || error.code == EWOULDBLOCK { break }
                n = 0
            }
            if n > 0 {
                c.outbuf.removeFirst(n)
                // A client reading a long reply is not idle.
                c.lastActivity = MonotonicClock.now()
                continue
            }
            close(c.fd)
            clients[id] = nil
            return
        }
        if c.outbuf.isEmpty && c.closing {
            close(c.fd)
            clients[id] = nil
            return
        }
        clients[id] = c
    }

    /// The request as `CommandRights` names it: its `cmd`, an anchor's verb apart.
    static func name(of r: ControlRequest) -> CommandRights.Command {
        if case .anchor(let a) = r, a != .status { return .socketAnchor(a.verb) }
        return .socket(r.name)
    }
}
