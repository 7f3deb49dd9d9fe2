#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock, for timeouts and ages (never for tracking logic, whose time
/// comes from the fixes).
public enum MonotonicClock {
    public static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
