import Testing

@testable import GPSTrackDaemon

/// The gpsd reconnect policy (gpstrackd(8), GPSD) as a value, without a clock: waits of 0.5 s
/// doubling to the cap, and from 0.5 s again once gpsd has reported. GPSDReconnectTests checks
/// live only that the attempts happen and the new gpsd is watched.
@Suite struct ReconnectBackoffTests {
    @Test func eachWaitIsTwiceTheOneBeforeUpToTheCap() {
        var backoff = ReconnectBackoff(cap: 30)
        let waits = (0..<9).map { _ in backoff.take() }
        // Written out, not computed: 0.5 s doubling, then 30 s for as long as gpsd is away.
        #expect(waits == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
    }

    @Test func aReportStartsTheNextOutageFromTheFirstWait() {
        var backoff = ReconnectBackoff(cap: 30)
        for _ in 0..<5 { _ = backoff.take() }
        backoff.reset()
        #expect([backoff.take(), backoff.take(), backoff.take()] == [0.5, 1, 2])
    }

    @Test func aCapBelowTheDoublingHoldsEveryLaterWait() {
        var backoff = ReconnectBackoff(cap: 3)
        #expect((0..<5).map { _ in backoff.take() } == [0.5, 1, 2, 3, 3])
    }
}
