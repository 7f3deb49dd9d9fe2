import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

@Suite struct SimulatorTests {
    @Test func sameSeedSameTrace() {
        var r1 = SeededRandom(seed: 9)
        var r2 = SeededRandom(seed: 9)
        let a = Simulator.run(.walk(lengthM: 300, rng: &r1), seed: 4)
        let b = Simulator.run(.walk(lengthM: 300, rng: &r2), seed: 4)
        #expect(a.fixes.count == b.fixes.count)
        #expect(
            zip(a.fixes, b.fixes).allSatisfy { $0.latitude.bitPattern == $1.latitude.bitPattern && $0.time == $1.time })
        let c = Simulator.run(.walk(lengthM: 300, rng: &r1), seed: 5)
        #expect(!zip(a.fixes, c.fixes).allSatisfy { $0.latitude.bitPattern == $1.latitude.bitPattern })
    }

    @Test func truePathMatchesTheScenario() throws {
        var rng = SeededRandom(seed: 1)
        let trace = Simulator.run(.walk(lengthM: 2000, rng: &rng), seed: 1)
        #expect(abs(trace.truePathM - 2000) < 1e-6)
        // The true positions (one a fix) measured by GeodSolve: the scenario's 2,000 m less what
        // the last second's step had not yet covered, under one step (1.4 m).
        let measured = try GeodSolveTruth.lengths([trace.truth])[0]
        #expect(measured <= 2000 + 1e-6 && measured > 2000 - 1.4, "GeodSolve \(measured) m")
        // The true positions are one second apart at walking speed (GeodSolve, one run).
        let steps = try GeodSolveTruth.lengths(zip(trace.truth, trace.truth.dropFirst()).map { [$0, $1] })
        #expect(steps.count == trace.truth.count - 1 && steps.allSatisfy { $0 <= 1.4 + 1e-6 }, "\(steps.max() ?? -1)")
    }

    @Test func errorModelHasTheAdvertisedShape() throws {
        let trace = Simulator.run(.parked(seconds: 20000), seed: 3)
        let noFix = trace.fixes.filter { $0.mode < 2 }.count
        let bigEph = trace.fixes.filter { $0.mode >= 2 && $0.eph > 50 }.count
        #expect((200...400).contains(noFix), "about 1.5 % no-fix epochs")
        #expect((120...280).contains(bigEph), "about 1 % jumps with a large eph")
        // Each fix's offset from its true position, measured by GeodSolve (one run).
        let offsets = try GeodSolveTruth.lengths(
            zip(trace.fixes, trace.truth).filter { $0.0.mode >= 2 && $0.0.eph <= 50 }.map { [$0.0.coordinate, $0.1] })
        let rms = (offsets.map { $0 * $0 }.reduce(0, +) / Double(offsets.count)).squareRoot()
        // 3 m wander and 1 m white noise per axis: about 4.5 m rms horizontally (a few
        // lying jumps push it up a little).
        #expect(rms > 3 && rms < 7)
    }

    @Test func logWriterProducesGpsdTPVs() {
        let fix = Fix(
            mode: 3, time: 1_773_475_358, latitude: 31.2304, longitude: 121.4737, eph: 5.5, speed: 1.25, track: 35)
        let line = GPSDLogWriter.tpv(fix)
        #expect(line.hasPrefix(#"{"class":"TPV","device":"/dev/ttySIM0","mode":3,"time":"2026-03-14T08:02:38.000Z""#))
        #expect(line.contains(#""lat":31.2304"#) && line.contains(#""eph":5.5"#) && !line.contains("nan"))
    }
}

/// The accelerometer simulator's truth is what its parameters say.
@Suite struct AccelSimulatorTests {
    @Test(arguments: [60.0, 120, 180])
    func stepsFollowTheCadence(cadence: Double) {
        let trace = AccelSimulator.walk(cadence: cadence, carry: .pocket, duration: 300, seed: 4, pauses: false)
        #expect(abs(Double(trace.trueSteps) / (cadence * 5) - 1) < 0.02)
        #expect(abs(trace.walkingSeconds - 300) < 60 / cadence * 2)
        // At rest or walking, the magnitude averages about one g.
        let mean =
            trace.samples.map { ($0.x * $0.x + $0.y * $0.y + $0.z * $0.z).squareRoot() }.reduce(0, +)
            / Double(trace.samples.count)
        #expect(abs(mean - 9.81) < 1.0)
    }

    @Test func seededAndReproducible() {
        let a = AccelSimulator.ride(.car, duration: 60, seed: 3)
        let b = AccelSimulator.ride(.car, duration: 60, seed: 3)
        #expect(a.samples == b.samples)
        #expect(a.samples.count > 2900 && a.samples.count < 3100)
    }
}
