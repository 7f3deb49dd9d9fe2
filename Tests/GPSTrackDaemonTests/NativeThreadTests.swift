import Foundation
import Synchronization
import Testing

@testable import GPSTrackDaemon

/// Threads for blocking work: a stop awaits its thread's end without holding a thread of Swift's
/// cooperative pool (no `pthread_join` from async code, issue 13).
@Suite struct NativeThreadTests {
    final class Counts: Sendable {
        let begun = Atomic<Int>(0)
        let starved = Atomic<Bool>(false)
    }

    /// A task executor of one thread of its own: what runs on it cannot be held up by the
    /// cooperative pool, which other suites' blocking waits may keep busy for minutes.
    final class OneThread: TaskExecutor {
        private let jobs = Mutex<[UnownedJob]>([])
        private let ready = DispatchSemaphore(value: 0)

        /// Runs the jobs until `finish` (with none waiting).
        func start() -> NativeThread {
            NativeThread { [self] in
                while true {
                    ready.wait()
                    guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
                    job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
        }

        func finish() { ready.signal() }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            jobs.withLock { $0.append(job) }
            ready.signal()
        }
    }

    /// Runs `n` waits at once, each `wait(i)`, on one thread of its own, while a referee off that
    /// thread signals `release` `n` times once all have begun, or after 30 s; returns whether
    /// they were starved (not all began: one of them blocked the thread). The test fails
    /// rather than hangs (the waits begin within milliseconds otherwise).
    static func waitAtOnceOnOneThread(
        _ n: Int, thenRelease release: DispatchSemaphore,
        _ wait: @escaping @Sendable (Int) async -> Void
    ) async -> Bool {
        let counts = Counts()
        let referee = NativeThread {
            var waited = 0
            while counts.begun.load(ordering: .acquiring) < n && waited < 3_000 {
                usleep(10_000)  // polls the count, for at most 30 s
                waited += 1
            }
            if counts.begun.load(ordering: .acquiring) < n { counts.starved.store(true, ordering: .releasing) }
            for _ in 0..<n { release.signal() }
        }
        let executor = OneThread()
        let runner = executor.start()
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<n {
                group.addTask(executorPreference: executor) {
                    counts.begun.add(1, ordering: .releasing)
                    await wait(i)
                }
            }
        }
        executor.finish()
        await runner.join()
        await referee.join()
        return counts.starved.load(ordering: .acquiring)
    }

    /// Far more joins wait at once than the one thread they run on: were a join to block it,
    /// the next join could not begin.
    @Test func joinsWaitWithoutHoldingTheirThread() async {
        let n = 64
        let release = DispatchSemaphore(value: 0)
        let threads = (0..<n).map { _ in NativeThread { release.wait() } }
        let early = threads.filter(\.isFinished).count
        #expect(early == 0, "the threads wait for their release")
        let starved = await Self.waitAtOnceOnOneThread(n, thenRelease: release) { await threads[$0].join() }
        #expect(!starved, "all \(n) joins began on one thread while the threads still waited")
        let finished = threads.filter(\.isFinished).count
        #expect(finished == n, "every join returned after its thread's body")
    }

    /// A join after the thread has ended returns at once; two joins on one thread both return.
    @Test func joinAfterTheEndAndTwice() async {
        let t = NativeThread {}
        await t.join()
        let ended = t.isFinished
        #expect(ended)
        await t.join()
        let slow = NativeThread { usleep(50_000) }
        async let a: Void = slow.join()
        async let b: Void = slow.join()
        _ = await (a, b)
        let slowEnded = slow.isFinished
        #expect(slowEnded)
    }
}
