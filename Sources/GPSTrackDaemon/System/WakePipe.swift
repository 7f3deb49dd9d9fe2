#if canImport(Glibc)
import Glibc
#endif

/// A self-pipe that wakes a thread blocked in poll(2): other threads call `wake()`, the
/// polling thread watches `readFD` and calls `drain()`. Both ends are non-blocking and
/// close-on-exec.
final class WakePipe: Sendable {
    /// The end to poll for POLLIN.
    let readFD: Int32
    private let writeFD: Int32

    init() throws(ErrnoError) {
        var fds: [Int32] = [-1, -1]
        try syscall("pipe") { pipe(&fds) }
        for fd in fds {
            _ = try? syscall("fcntl") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = try? syscall("fcntl") { fcntl(fd, F_SETFL, O_NONBLOCK) }
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Wakes the poller (a full pipe already will).
    func wake() {
        var one: UInt8 = 1
        _ = try? syscall("write") { write(writeFD, &one, 1) }
    }

    /// Empties the pipe, so that the next poll waits again.
    func drain() {
        var sink = [UInt8](repeating: 0, count: 256)
        while ((try? syscall("read") { read(readFD, &sink, sink.count) }) ?? 0) > 0 {}
    }
}
