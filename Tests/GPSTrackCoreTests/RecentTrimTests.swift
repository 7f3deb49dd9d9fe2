import Testing

@testable import GPSTrackCore

/// The trip detector's recent samples (what a stop or a start is judged by): every sample of the
/// last `min_stop_s` + 120 s is kept, and not many more, through gaps that empty them.
@Suite struct RecentTrimTests {
    @Test func theRecentSamplesKeepTheirWindowAndLittleMore() {
        var config = TrackerConfig()
        config.maxGapS = 300
        var detector = TripDetector(config: config)
        let window = config.minStopS + 120
        var t = 1_773_475_200.0
        var longest = 0
        for phase in 0..<3 {
            let phaseStart = t
            for k in 0..<1_500 {
                // Eastward at 10 m/s, at 1 Hz.
                let fix = Fix(
                    mode: 3, time: t, latitude: 52.5, longitude: 13.3 + Double(phase * 2_000 + k) * 1.48e-4, eph: 5,
                    speed: 10, track: 90)
                _ = detector.ingest(fix, hop: 10, jumped: false)
                guard let oldest = detector.recent.first?.time else {
                    Issue.record("no recent sample at \(t)")
                    return
                }
                // Nothing of the window is dropped: the oldest kept is the phase's first or older
                // than the window's start.
                #expect(oldest <= max(phaseStart, t - window), "phase \(phase), fix \(k): \(oldest - phaseStart) s")
                longest = max(longest, detector.recent.count)
                t += 1
            }
            // A gap past max_gap_s: the samples start again.
            t += 1_000
        }
        // Trimmed in batches of up to 256 (or half): the window's 421 samples and a batch.
        #expect(longest > Int(window) && longest <= Int(window) + 258, "\(longest) samples at most")
    }
}
