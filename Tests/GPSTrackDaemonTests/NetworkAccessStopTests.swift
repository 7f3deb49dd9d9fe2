import Testing

@testable import GPSTrackDaemon

/// The address check's thread (`NetworkAccess`) waits between retries of a name that does not
/// resolve; a stop must end that wait, not sit it out.
@Suite struct NetworkAccessStopTests {
    /// No clock: the next try is an hour on, so a stop that sat the wait out would hang the
    /// test, and the time limit fails it. The limit is a referee: a stop takes milliseconds,
    /// but beside make test-repeat's CPU hog this async test waited over a minute for a thread
    /// of the cooperative pool (other suites' blocking waits held both); ten minutes is still
    /// a sixth of the wait a stop must end.
    @Test(.timeLimit(.minutes(10))) func aStopEndsTheWaitBetweenRetries() async throws {
        let access = NetworkAccess(journal: Journal(target: .stderr))
        // An empty host name fails to resolve at once, with no DNS query.
        access.start([NetworkAccess.Target(role: "gpsd", host: "", port: 2947)], retry: 3600)
        // The stop is awaited on a thread of its own: under the whole suite, the cooperative
        // pool's two threads are often held by other tests' blocking waits.
        let executor = try ThreadExecutor()
        let stopped = await Task(executorPreference: executor) {
            await access.stop()
            return true
        }.value
        #expect(stopped)
    }
}
