import Testing

@testable import GPSTrackDaemon

/// The address check's thread (`NetworkAccess`) waits between retries of a name that does not
/// resolve; a stop must end that wait, not sit it out.
@Suite struct NetworkAccessStopTests {
    @Test func aStopEndsTheWaitBetweenRetries() async throws {
        let access = NetworkAccess(journal: Journal(target: .stderr))
        // An empty host name fails to resolve at once, with no DNS query; the next try is 60 s on.
        access.start([NetworkAccess.Target(role: "gpsd", host: "", port: 2947)], retry: 60)
        // The stop is awaited and timed on a thread of its own: under the whole suite, the
        // cooperative pool's two threads are often held by other tests' blocking waits, and a
        // resumption there can come a minute late.
        let executor = try ThreadExecutor()
        let took = await Task(executorPreference: executor) {
            let t0 = ContinuousClock.now
            await access.stop()
            return ContinuousClock.now - t0
        }.value
        // A referee: the stop ends the wait at once (milliseconds); sitting it out is 60 s.
        #expect(took < .seconds(10), "the stop sat out the 60 s wait")
    }
}
