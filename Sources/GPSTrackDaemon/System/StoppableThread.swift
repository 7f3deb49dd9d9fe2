import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for a blocking loop (a reader, a server) that can be asked to stop: the
/// stop flag, the wake pipe that ends its waits and the detached `NativeThread`, in one place.
/// The body checks `isStopping` and waits only through `pause`, `waitFor` or a poll that
/// includes `wakeFD`, so that `stop()` ends it within one of its steps, never a timeout.
final class StoppableThread: Sendable {
    private struct State {
        var started = false
        var thread: NativeThread?
    }

    private let stopping = Atomic<Bool>(false)
    private let pipe: WakePipe
    private let state = Mutex(State())

    init() throws(ErrnoError) {
        pipe = try WakePipe()
    }

    /// Starts `body` on a new thread; once only. Started after a stop, the body still runs (it
    /// sees `isStopping` at once), so that what it does on its way out (closing, finishing a
    /// stream) is done.
    func start(_ body: @escaping @Sendable () -> Void) {
        state.withLock { s in
            precondition(!s.started, "a StoppableThread starts once")
            s.started = true
            s.thread = NativeThread(body)
        }
    }

    /// Starts `body` with the continuation of a new stream, finished when `body` returns, so the
    /// consumer's `for await` ends with the thread.
    func stream<Element: Sendable>(
        _: Element.Type = Element.self,
        buffering: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded,
        _ body: @escaping @Sendable (AsyncStream<Element>.Continuation) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: buffering)
        start {
            body(continuation)
            continuation.finish()
        }
        return stream
    }

    /// Whether a stop was asked for: the body returns soon after this turns true.
    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// Asks the body to stop and wakes it; does not wait.
    func requestStop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        pipe.wake()
    }

    /// Asks the body to stop and waits for its thread, suspended (no thread of the cooperative
    /// pool blocks). Returns at once when never started; every caller waits for the end.
    func stop() async {
        requestStop()
        await state.withLock { $0.thread }?.join()
    }

    // MARK: for the body

    /// The wake pipe's end, for a body that polls descriptors of its own: readable after a stop
    /// or a `wake()`.
    var wakeFD: Int32 { pipe.readFD }

    /// Wakes the body without stopping it (news for it to pick up).
    func wake() { pipe.wake() }

    /// Empties the wake pipe after a `wake()`, so that the next poll waits again.
    func drainWakes() { pipe.drain() }

    /// How a bounded wait ended.
    enum WaitEnd: Equatable {
        /// The descriptor is ready: its `revents`.
        case ready(Int16)
        case timedOut
        case stopped
    }

    /// Waits up to `seconds` for `fd` (none: just the time) to be ready for `events`, ending
    /// early on a stop. `beat` runs before each poll of at most `beatEvery` seconds: a watchdog's
    /// heartbeat through a long wait.
    func wait(
        for fd: Int32? = nil, events: Int16 = Int16(POLLIN), seconds: Double,
        beatEvery slice: Double = 3600, beat: () -> Void = {}
    ) -> WaitEnd {
        let deadline = MonotonicClock.now() + seconds
        while !isStopping {
            beat()
            let left = deadline - MonotonicClock.now()
            if left <= 0 { return .timedOut }
            // +1 ms: a wait truncated to 0 ms would spin until the deadline. poll(2) ignores a
            // negative descriptor: without `fd` only the wake pipe is watched.
            let revents = waitFor(
                fd ?? -1, events: events, timeoutMS: Int32(clamping: min(left, slice) * 1000, rounding: .towardZero) + 1
            )
            if fd != nil, revents != 0 { return .ready(revents) }
        }
        return .stopped
    }

    /// Sleeps up to `seconds`, returning early (false) when asked to stop; `beat` as in `wait`.
    func pause(_ seconds: Double, beatEvery slice: Double = 3600, beat: () -> Void = {}) -> Bool {
        wait(seconds: seconds, beatEvery: slice, beat: beat) == .timedOut
    }

    /// Waits up to `timeoutMS` (-1: no limit) for `fd` to be readable (or what `events` asks),
    /// a stop or a wake; returns `fd`'s `revents` (0 when woken or timed out).
    func waitFor(_ fd: Int32, events: Int16 = Int16(POLLIN), timeoutMS: Int32) -> Int16 {
        // A tuple on the stack, not an array: the gpsd reader waits here once per read.
        var fds = (
            pollfd(fd: fd, events: events, revents: 0),
            pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)
        )
        _ = withUnsafeMutablePointer(to: &fds) { tuple in
            tuple.withMemoryRebound(to: pollfd.self, capacity: 2) { p in try? syscall("poll") { poll(p, 2, timeoutMS) }
            }
        }
        return fds.0.revents
    }
}
