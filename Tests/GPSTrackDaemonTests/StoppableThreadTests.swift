import Foundation
import Synchronization
import Testing

@testable import GPSTrackDaemon

/// The lifecycle the gpsd reader, the pedometer and the control socket share (issue 13): a stop
/// ends a body blocked in its waits at once, whatever the order of the calls, and waits for the
/// thread without holding a thread of Swift's cooperative pool.
@Suite struct StoppableThreadTests {
    final class Probe: Sendable {
        let entered = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
        let wakes = Atomic<Int>(0)
        /// How long the body's wait lasted, ms (-1 until it ended).
        let waitedMS = Atomic<Int>(-1)
        /// What the body's wait returned (-1 until it ended).
        let result = Atomic<Int>(-1)

        // Plain values for #expect, which cannot take a non-copyable Atomic apart.
        var hasEntered: Bool { entered.load(ordering: .acquiring) }
        var hasFinished: Bool { finished.load(ordering: .acquiring) }
        var wakeCount: Int { wakes.load(ordering: .acquiring) }
        var waited: Int { waitedMS.load(ordering: .acquiring) }
        var returned: Int { result.load(ordering: .acquiring) }
    }

    /// Polls `condition` every 10 ms for up to 30 s: what the test waits for. Synchronous on
    /// purpose: between starting a body and stopping it the test must not suspend, or a
    /// cooperative pool kept busy by other suites' blocking waits (a full `make test`) could
    /// hold it past the body's one-minute wait, which then ends by itself.
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<3_000 {
            if condition() { return true }
            usleep(10_000)  // polls the condition
        }
        return condition()
    }

    /// A pipe nobody writes to: a descriptor that never becomes readable.
    static func silentPipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    /// The waits a body blocks in.
    enum Wait: String, CaseIterable, Sendable { case pause, descriptor }

    /// Blocked in a one-minute wait (a `pause`, or a `waitFor` on a descriptor that never
    /// becomes readable), the body is woken by the stop: the wait lasts far less than the
    /// minute (a lost wake would make it the whole minute) and ends without news (`pause`
    /// false, no `revents`).
    @Test(arguments: Wait.allCases) func stopEndsAWait(_ kind: Wait) async throws {
        let silent = Self.silentPipe()
        defer {
            close(silent.read)
            close(silent.write)
        }
        let t = try StoppableThread()
        let probe = Probe()
        t.start {
            probe.entered.store(true, ordering: .releasing)
            let begun = MonotonicClock.now()
            let result =
                switch kind {
                case .pause: t.pause(60) ? 1 : 0
                case .descriptor: Int(t.waitFor(silent.read, timeoutMS: 60_000))
                }
            probe.result.store(result, ordering: .releasing)
            probe.waitedMS.store(Int((MonotonicClock.now() - begun) * 1000), ordering: .releasing)
        }
        let entered = Self.eventually { probe.hasEntered }
        #expect(entered)
        // Asked before any suspension (see `eventually`); `stop` then waits for the thread.
        t.requestStop()
        await t.stop()
        #expect(t.isStopping)
        let waited = probe.waited
        #expect(waited >= 0, "stop returned only after the body")
        #expect(waited < 30_000, "the stop woke the \(kind.rawValue) wait (it lasted \(waited) ms of 60 s)")
        #expect(probe.returned == 0, "the \(kind.rawValue) wait ended without news")
    }

    /// `wake()` ends a wait without stopping: the body sees the wake, drains it, waits again.
    @Test func wakeIsNotAStop() async throws {
        let silent = Self.silentPipe()
        defer {
            close(silent.read)
            close(silent.write)
        }
        let t = try StoppableThread()
        let probe = Probe()
        t.start {
            while !t.isStopping {
                if t.waitFor(silent.read, timeoutMS: 60_000) == 0, !t.isStopping {
                    t.drainWakes()
                    probe.wakes.add(1, ordering: .releasing)
                }
            }
            probe.finished.store(true, ordering: .releasing)
        }
        t.wake()
        let woken = Self.eventually { probe.wakeCount >= 1 }
        #expect(woken, "the body saw the wake")
        #expect(!t.isStopping)
        #expect(!probe.hasFinished, "a wake does not end the body")
        await t.stop()
        #expect(probe.hasFinished)
    }

    /// A stop before the start returns at once; the body started afterwards still runs (its
    /// way out, here finishing a stream, is done) and sees the stop at once.
    @Test func stopBeforeStart() async throws {
        let t = try StoppableThread()
        await t.stop()
        #expect(t.isStopping)
        let stream = t.stream(Int.self) { out in
            out.yield(t.isStopping ? 1 : 0)
            while !t.isStopping { _ = t.pause(60) }
        }
        var got: [Int] = []
        for await v in stream { got.append(v) }
        #expect(got == [1], "the body ran, saw the stop, and its stream finished")
        await t.stop()
    }

    /// Two stops, one after the other or at once, both return only after the body's end.
    @Test func stopTwice() async throws {
        let t = try StoppableThread()
        let probe = Probe()
        t.start {
            while !t.isStopping { _ = t.pause(60) }
            usleep(50_000)  // a way out that takes a moment: both stops must wait for it
            probe.finished.store(true, ordering: .releasing)
        }
        async let a: Bool = {
            await t.stop()
            return probe.hasFinished
        }()
        async let b: Bool = {
            await t.stop()
            return probe.hasFinished
        }()
        let (first, second) = await (a, b)
        #expect(first && second, "each concurrent stop returned after the body")
        await t.stop()
        #expect(probe.hasFinished, "a third stop, after the end, returns")
    }

    /// Far more stops wait at once than the one thread they run on: were a stop to block it
    /// while its body finishes, the next stop could not begin.
    @Test func stopsWaitWithoutHoldingTheirThread() async throws {
        let n = 32
        let release = DispatchSemaphore(value: 0)
        let ended = Atomic<Int>(0)
        let threads = try (0..<n).map { _ in try StoppableThread() }
        for t in threads {
            t.start {
                while !t.isStopping { _ = t.pause(60) }
                release.wait()  // the body's way out lasts until the referee's release
                ended.add(1, ordering: .releasing)
            }
        }
        let starved = await NativeThreadTests.waitAtOnceOnOneThread(n, thenRelease: release) {
            await threads[$0].stop()
        }
        let endedCount = ended.load(ordering: .acquiring)
        #expect(!starved, "all \(n) stops began on one thread while the bodies still ran")
        #expect(endedCount == n, "every stop returned after its body")
    }
}
