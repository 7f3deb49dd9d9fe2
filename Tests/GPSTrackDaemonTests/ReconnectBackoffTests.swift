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

/// The uplinks' one policy (issue 37): 1 s doubling to 60 s, each wait between its half and its
/// whole, without a clock. Before it, MQTT capped at 30 s and HTTP at 5 min.
@Suite struct TransportBackoffTests {
    @Test func theWaitsDoubleFromOneSecondToAMinute() {
        // Written out: 1 s doubling, then 60 s for as long as the server is away; the lowest
        // draw halves each wait.
        var highest = ReconnectBackoff.transport
        #expect((0..<9).map { _ in highest.take(drawn: 1) } == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        var lowest = ReconnectBackoff.transport
        #expect((0..<9).map { _ in lowest.take(drawn: 0) } == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
    }

    @Test func everyWaitLiesInItsHalfAndNoneExceedsAMinute() {
        var backoff = ReconnectBackoff.transport
        let ceilings: [Double] = [1, 2, 4, 8, 16, 32] + Array(repeating: 60, count: 200)
        let waits = ceilings.map { _ in backoff.take() }
        for (wait, ceiling) in zip(waits, ceilings) { #expect(wait >= ceiling / 2 && wait <= ceiling) }
        #expect(Set(waits.suffix(200)).count > 150, "the waits at the cap are spread, not one value")
        backoff.reset()
        #expect(backoff.take() <= 1, "an answer starts the next outage from 1 s")
    }
}
