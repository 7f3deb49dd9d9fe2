import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Delivers SIGTERM, SIGINT and SIGHUP as an `AsyncStream`. The signals' default actions are
/// replaced by SIG_IGN and Dispatch signal sources observe them, so no work (and no Swift code)
/// runs in a signal handler.
public enum SignalStream {
    public static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    private static let queue = DispatchQueue(label: "gpstrackd.signals")
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    /// SIGTERM and SIGINT seen so far, and what a second one does.
    private static let stopping = Synchronization.Mutex<(stops: Int, hurry: (@Sendable () -> Void)?)>((0, nil))

    /// What a second SIGTERM or SIGINT does (the first asks for a graceful stop): it runs on
    /// the signal queue, off the cooperative pool, so a stalled tracker cannot hold it up.
    public static func onSecondStop(_ action: @escaping @Sendable () -> Void) {
        stopping.withLock { $0.hurry = action }
    }

    /// Takes the handled signals away from their default actions. Call first thing in `main`,
    /// before `make()`: a SIGTERM that arrives in between is then ignored rather than fatal.
    public static func blockHandledSignals() {
        for s in handled { signal(s, SIG_IGN) }
    }

    /// Gives the handled signals their default actions back, unblocked (a parent may have
    /// blocked them): for the offline commands, which must end at once on SIGTERM or SIGINT
    /// whatever they are doing, with nothing to save.
    public static func restoreDefaultActions() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in handled {
            signal(s, SIG_DFL)
            sigaddset(&set, s)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The stream of handled signals, returned once Dispatch has registered every source: a
    /// signal sent from then on is delivered (queued in the stream until read), where one sent
    /// before the registration would still meet SIG_IGN and be lost. The daemon makes it first,
    /// before anything can see it running (the socket, READY), so a SIGTERM sent during the
    /// start stops it once started rather than being ignored.
    public static func make() async -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let left = Countdown(handled.count)
        await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
            queue.async {
                for s in handled {
                    let source = DispatchSource.makeSignalSource(signal: s, queue: queue)
                    source.setEventHandler {
                        if s != SIGHUP {
                            let hurry = stopping.withLock { state -> (@Sendable () -> Void)? in
                                state.stops += 1
                                return state.stops >= 2 ? state.hurry : nil
                            }
                            hurry?()
                        }
                        continuation.yield(s)
                    }
                    // Runs on `queue` once the source is in Dispatch's event loop.
                    source.setRegistrationHandler { if left.tick() { registered.resume() } }
                    source.resume()
                    sources.append(source)
                }
            }
        }
        return stream
    }
}

/// Counts registrations down; true for the last.
private final class Countdown: Sendable {
    private let left: Synchronization.Mutex<Int>
    init(_ count: Int) { left = .init(count) }
    func tick() -> Bool {
        left.withLock {
            $0 -= 1
            return $0 == 0
        }
    }
}
