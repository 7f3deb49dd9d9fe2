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

    /// Far more joins wait at once than the pool has threads (one per core). Were a join to block
    /// its thread, the pool would starve before they had all begun: a referee off the pool then
    /// lets the threads go after 120 s and says so, so the test fails rather than hangs. (The
    /// margin is for a pool other suites keep busy with blocking waits of their own; the joins
    /// begin within milliseconds otherwise.)
    @Test func joinsWaitWithoutHoldingThreadsOfThePool() async {
        let n = 64
        let release = DispatchSemaphore(value: 0)
        let counts = Counts()
        let threads = (0..<n).map { _ in NativeThread { release.wait() } }
        let referee = NativeThread {
            var waited = 0
            while counts.begun.load(ordering: .acquiring) < n && waited < 12_000 { usleep(10_000); waited += 1 }
            if counts.begun.load(ordering: .acquiring) < n { counts.starved.store(true, ordering: .releasing) }
            for _ in 0..<n { release.signal() }
        }
        let early = threads.filter(\.isFinished).count
        #expect(early == 0, "the threads wait for their release")
        await withTaskGroup(of: Void.self) { group in
            for t in threads {
                group.addTask {
                    counts.begun.add(1, ordering: .releasing)
                    await t.join()
                }
            }
        }
        await referee.join()
        let starved = counts.starved.load(ordering: .acquiring)
        #expect(!starved, "all \(n) joins began while the threads still waited")
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
