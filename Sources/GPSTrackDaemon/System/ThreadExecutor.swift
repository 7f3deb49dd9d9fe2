import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A serial executor on a dedicated OS thread: an actor that does blocking work (SQLite commits
/// with synchronous=FULL, retention's pruning, the MQTT outbox) runs its jobs here, never on
/// Swift's cooperative pool (two threads on a 2-core box). It is also a task executor: a task
/// that prefers it (the tracker's gpsd loop) is resumed here, on the actor's own thread, so a
/// batch from the gpsd reader wakes one thread, not a pool thread that then wakes this one.
final class ThreadExecutor: SerialExecutor, TaskExecutor, Sendable {
    private let state = Mutex<(jobs: [UnownedJob], sleeping: Bool)>(([], false))
    private let wakePipe: WakePipe
    private let thread = Mutex<NativeThread?>(nil)

    init() throws(ErrnoError) {
        wakePipe = try WakePipe()
        let reader = NativeThread { [self] in run() }
        thread.withLock { $0 = reader }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = state.withLock { s -> Bool in
            s.jobs.append(job)
            defer { s.sleeping = false }
            return s.sleeping
        }
        if wake { wakePipe.wake() }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Runs jobs in order for the life of the process; sleeps in poll(2) while there are none.
    private func run() {
        var pfd = pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0)
        while true {
            let batch = state.withLock { s -> [UnownedJob] in
                let jobs = s.jobs
                s.jobs.removeAll(keepingCapacity: true)
                if jobs.isEmpty { s.sleeping = true }
                return jobs
            }
            if batch.isEmpty {
                _ = try? syscall("poll") { poll(&pfd, 1, -1) }
                wakePipe.drain()
                continue
            }
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}
