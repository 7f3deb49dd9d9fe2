import Testing
import GPSTrackDaemon

/// The address check's thread (`NetworkAccess`) waits between retries of a name that does not
/// resolve; a stop must end that wait, not sit it out.
@Suite struct NetworkAccessStopTests {
    @Test func aStopEndsTheWaitBetweenRetries() async {
        let access = NetworkAccess(journal: Journal(target: .stderr))
        // An empty host name fails to resolve at once, with no DNS query; the next try is 60 s on.
        access.start([NetworkAccess.Target(role: "gpsd", host: "", port: 2947)], retry: 60)
        let t0 = ContinuousClock.now
        await access.stop()
        #expect(ContinuousClock.now - t0 < .seconds(10), "the stop sat out the 60 s wait")
    }
}
