import GPSTrackCore
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP uplink's sender: a thread of its own (the requests block) that sends the outbox's
/// oldest message, one at a time, over the uplink's kept connection. Only a 2xx removes it.
/// No reply, a timeout or a 5xx: retried by the transports' one policy
/// (`ReconnectBackoff.transport`: 1 s doubling to 60 s, jittered), the outage logged once
/// (`uplink_lost`) and its end (`uplink_recovered`). A 4xx (an unknown device, bad
/// credentials) is the server refusing: logged once per spell at warning with the status and
/// the server's text (`uplink_refused`), the message kept and retried by the same policy, so
/// that fixing the server recovers without a restart.
final class UplinkSender: Service {
    /// What `status` shows of the uplink.
    struct Snapshot {
        var connected: Bool
        var queued: Int
        var oldest: Double?
        var lastSuccess: Double?
        var lastError: String?
        var dropped: Int
        var expired: Int
    }

    /// Builds and sends the request for a message; runs on the sender's thread.
    typealias Deliver = @Sendable (Outbox.Message) -> HTTPResponse

    /// The uplink's name (`traccar`, `owntracks_http`, `webhook`), the stop's stage too.
    let name: String
    let outbox: Outbox
    private let journal: Journal
    private let wake: WakePipe
    private let stopping = Atomic<Bool>(false)
    private struct State {
        var connected = false
        var lastSuccess: Double?
        var lastError: String?
        var thread: NativeThread?
    }
    private let state = Mutex(State())

    init(name: String, outbox: Outbox, journal: Journal) throws(ErrnoError) {
        self.name = name
        self.outbox = outbox
        self.journal = journal
        wake = try WakePipe()
    }

    /// Starts the thread; `deliver` sends one message.
    func start(_ deliver: @escaping Deliver) {
        let thread = NativeThread { [self] in run(deliver) }
        state.withLock { $0.thread = thread }
    }

    /// A message was queued: send it if idle.
    func poke() { wake.wake() }

    /// Ends the loop after the request in flight (which stays queued unless it was confirmed).
    func stop() async {
        stopping.store(true, ordering: .relaxed)
        wake.wake()
        await state.withLock { $0.thread }?.join()
    }

    var snapshot: Snapshot {
        let w = outbox.waiting
        return state.withLock { s in
            Snapshot(
                connected: s.connected, queued: w.count, oldest: w.oldest, lastSuccess: s.lastSuccess,
                lastError: s.lastError, dropped: w.dropped, expired: w.expired)
        }
    }

    private func run(_ deliver: Deliver) {
        var backoff = ReconnectBackoff.transport
        var outage: String?  // lost or refused, while a spell lasts
        while !stopping.load(ordering: .relaxed) {
            guard let message = outbox.head() else {
                pause(nil)
                continue
            }
            let r = deliver(message)
            if r.succeeded {
                outbox.remove(message)
                state.withLock {
                    $0.connected = true
                    $0.lastSuccess = Double(time(nil))
                }
                if let was = outage {
                    journal.log(
                        LogEntry(
                            event: .uplinkRecovered, priority: .info,
                            message: "\(name): the server takes messages again (after \(was))",
                            fields: [(.uplink, name)]))
                }
                outage = nil
                backoff.reset()
                continue
            }
            let refused = (400..<500).contains(r.status) && r.failure == nil
            let reason =
                refused
                ? "HTTP \(r.status): \(Self.text(r.body))"
                : r.failure.map { r.status > 0 ? "HTTP \(r.status): \($0)" : $0 }
                    ?? "HTTP \(r.status): \(Self.text(r.body))"
            state.withLock {
                $0.connected = r.status > 0
                $0.lastError = reason
            }
            let kind = refused ? "refused" : "lost"
            if outage != kind {
                journal.log(
                    LogEntry(
                        event: refused ? .uplinkRefused : .uplinkLost, priority: .warning,
                        message: refused
                            ? "\(name): the server refuses messages (\(reason)); kept and retried"
                            : "\(name): cannot send (\(reason)); messages kept and retried",
                        fields: [
                            (.uplink, name), (.reason, reason),
                            (.httpStatus, String(r.status)),
                        ]))
                outage = kind
                backoff.reset()
            }
            pause(backoff.take())
        }
    }

    /// Waits for a poke or the stop (`seconds` nil), or for `seconds` or the stop: a poke during
    /// a retry's wait does not shorten it (the server is not known to be back).
    private func pause(_ seconds: Double?) {
        var fd = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
        guard let seconds else {
            _ = poll(&fd, 1, -1)
            wake.drain()
            return
        }
        let end = MonotonicClock.now() + seconds
        while !stopping.load(ordering: .relaxed) {
            let left = end - MonotonicClock.now()
            guard left > 0 else { break }
            fd.revents = 0
            if poll(&fd, 1, Int32(clamping: min(left * 1000, 3_600_000), rounding: .up)) > 0 { wake.drain() }
        }
    }

    /// The server's text for the journal: printable, at most 200 characters.
    static func text(_ body: [UInt8]) -> String {
        let s = String(decoding: body.prefix(400), as: UTF8.self)
        let printable = s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) }
        let cut = String(printable.prefix(200)).split(separator: " ").joined(separator: " ")
        return cut.isEmpty ? "no text" : cut
    }
}
