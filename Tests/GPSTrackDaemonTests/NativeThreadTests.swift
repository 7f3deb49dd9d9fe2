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

    /// Far more joins wait at once than the one thread they run on: were a join to block it,
    /// the next join could not begin. A referee off that thread lets the threads go after
    /// 30 s and says so, so the test fails rather than hangs (the joins begin within
    /// milliseconds otherwise).
    @Test func joinsWaitWithoutHoldingTheirThread() async {
        let n = 64
        let release = DispatchSemaphore(value: 0)
        let counts = Counts()
        let threads = (0..<n).map { _ in NativeThread { release.wait() } }
        let referee = NativeThread {
            var waited = 0
            while counts.begun.load(ordering: .acquiring) < n && waited < 3_000 { usleep(10_000); waited += 1 }
            if counts.begun.load(ordering: .acquiring) < n { counts.starved.store(true, ordering: .releasing) }
            for _ in 0..<n { release.signal() }
        }
        let early = threads.filter(\.isFinished).count
        #expect(early == 0, "the threads wait for their release")
        let executor = OneThread()
        let runner = executor.start()
        await withTaskGroup(of: Void.self) { group in
            for t in threads {
                group.addTask(executorPreference: executor) {
                    counts.begun.add(1, ordering: .releasing)
                    await t.join()
                }
            }
        }
        executor.finish()
        await runner.join()
        await referee.join()
        let starved = counts.starved.load(ordering: .acquiring)
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
