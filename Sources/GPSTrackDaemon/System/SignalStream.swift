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

    /// The stream of handled signals.
    public static func make() -> AsyncStream<Int32> {
        AsyncStream { continuation in
            queue.sync {
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
                    source.resume()
                    sources.append(source)
                }
            }
        }
    }
}
