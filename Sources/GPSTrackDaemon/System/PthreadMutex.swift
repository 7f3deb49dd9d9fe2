#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex for the few places that are shared across threads.
public final class Mutex: @unchecked Sendable {
    private let m: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        m = .allocate(capacity: 1)
        pthread_mutex_init(m, nil)
    }

    deinit {
        pthread_mutex_destroy(m)
        m.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(m)
        defer { pthread_mutex_unlock(m) }
        return try body()
    }
}
