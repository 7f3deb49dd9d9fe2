#if canImport(Glibc)
import Glibc
#endif

/// A dedicated OS thread for blocking work (libgps reads, sigwait), kept off Swift's
/// cooperative pool.
public final class NativeThread: Sendable {
    private let thread: pthread_t
    private final class Box { let body: () -> Void; init(_ b: @escaping () -> Void) { body = b } }

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { arg in
            let b = Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue()
            b.body()
            return nil
        }, box)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        self.thread = thread
    }

    /// Waits for the thread to end.
    public func join() {
        pthread_join(thread, nil)
    }
}
