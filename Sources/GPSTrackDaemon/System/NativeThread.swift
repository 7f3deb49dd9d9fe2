import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A dedicated OS thread for blocking work (poll, socket and device reads, name resolution), kept
/// off Swift's cooperative pool. The thread is detached: nobody calls `pthread_join`, which would
/// block a thread of the pool; `join()` suspends until the body has returned, resumed by the
/// thread itself as its last act.
public final class NativeThread: Sendable {
    private enum State {
        case running([CheckedContinuation<Void, Never>])
        case finished
    }

    private let state = Mutex(State.running([]))

    private final class Start {
        let body: @Sendable () -> Void
        let thread: NativeThread
        init(_ body: @escaping @Sendable () -> Void, _ thread: NativeThread) {
            self.body = body
            self.thread = thread
        }
    }

    /// Starts `body` on a new (detached) thread.
    public init(_ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(body, self)).toOpaque()
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, &attr,
            { arg in
                let s = Unmanaged<Start>.fromOpaque(arg!).takeRetainedValue()
                s.body()
                s.thread.finished()
                return nil
            }, start)
        pthread_attr_destroy(&attr)
        precondition(rc == 0, "pthread_create failed: \(rc)")
    }

    private func finished() {
        let waiting = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard case .running(let w) = s else { return [] }
            s = .finished
            return w
        }
        for c in waiting { c.resume() }
    }

    /// Whether the body has returned.
    public var isFinished: Bool { state.withLock { if case .finished = $0 { true } else { false } } }

    /// Waits for the body to return, suspended: no thread of the cooperative pool blocks on it.
    public func join() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let done = state.withLock { s -> Bool in
                guard case .running(var w) = s else { return true }
                w.append(c)
                s = .running(w)
                return false
            }
            if done { c.resume() }
        }
    }
}
