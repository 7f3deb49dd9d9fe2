import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// `gpstrackd replay-accel` end to end through the built executable.
@Suite(.serialized) struct ReplayAccelTests {
    static func summary(_ r: ExecutableRunner.Result) throws -> [String: Any] {
        let last = try #require(ExecutableRunner.json(r.lines.last ?? ""))
        return try #require(last["summary"] as? [String: Any])
    }

    @Test(arguments: [(Carry.pocket, 70.0), (.hand, 115), (.backpack, 175)])
    func countsAWalkWithinThreePercent(carry: Carry, cadence: Double) throws {
        let trace = AccelSimulator.walk(cadence: cadence, carry: carry, duration: 400, seed: 77 + UInt64(cadence))
        let path = try ExecutableRunner.temporaryFile(
            "walk-\(carry).csv", contents: AccelSimulator.csv(trace, startTime: 1_773_475_200))
        let r = try ExecutableRunner.run(["replay-accel", path])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let s = try Self.summary(r)
        let steps = try #require(s["steps"] as? Int)
        #expect(
            abs(Double(steps - trace.trueSteps)) <= 0.03 * Double(trace.trueSteps), "\(steps) vs \(trace.trueSteps)")
        let cad = try #require(s["cadence_spm"] as? Double)
        #expect(abs(cad / cadence - 1) <= 0.03)
        let duration = try #require(s["duration_s"] as? Double)
        let span = trace.samples.last!.t - trace.samples.first!.t
        #expect(abs(duration - span) < 0.01)
        #expect(s["samples"] as? Int == trace.samples.count)
        #expect(s["lines_malformed"] as? Int == 0)
    }

    @Test(arguments: [Ride.car, .still])
    func thirtyMinutesOfARideCountAlmostNothing(ride: Ride) throws {
        let trace = AccelSimulator.ride(ride, duration: 1800, seed: 31)
        let path = try ExecutableRunner.temporaryFile("ride-\(ride).csv", contents: AccelSimulator.csv(trace))
        let s = try Self.summary(try ExecutableRunner.run(["replay-accel", path]))
        let steps = try #require(s["steps"] as? Int)
        #expect(steps < 18, "\(ride): \(steps) steps (1 % of 30 min at 60 steps/min is 18)")
    }

    @Test func standardInputAndMalformedLines() throws {
        let trace = AccelSimulator.walk(cadence: 100, carry: .pocket, duration: 60, seed: 2, pauses: false)
        var lines = AccelSimulator.csv(trace).split(separator: "\n").map(String.init)
        lines.insert("1.5,2,3", at: 100)  // line 101: three fields
        lines.insert("abc,1,2,3", at: 200)  // line 201
        lines.insert("", at: 300)  // blank: skipped, not malformed
        lines.insert("1e999,0,0,9.8", at: 400)  // line 401: not finite
        lines.insert(String(repeating: "9", count: 5000), at: 500)  // line 501: too long
        let text = lines.joined(separator: "\n") + "\n"
        let path = try ExecutableRunner.temporaryFile("bad.csv", contents: text)
        let fromFile = try ExecutableRunner.run(["replay-accel", path])
        #expect(fromFile.status == 0)
        for n in [101, 201, 401, 501] {
            #expect(fromFile.stderr.contains("bad.csv:\(n): malformed line skipped"), "line \(n)")
        }
        let s = try Self.summary(fromFile)
        #expect(s["lines_malformed"] as? Int == 4)
        #expect(s["samples"] as? Int == trace.samples.count)
        let fromStdin = try ExecutableRunner.run(["replay-accel", "-"], stdin: Data(text.utf8))
        #expect(fromStdin.status == 0)
        #expect(fromStdin.lines.last == fromFile.lines.last)
        #expect(fromStdin.stderr.contains("<stdin>:101: malformed line skipped"))
    }

    @Test func exitCodes() throws {
        let missing = try ExecutableRunner.run(["replay-accel", "/nonexistent/accel.csv"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/accel.csv"))
        #expect(try ExecutableRunner.run(["replay-accel"]).status == 64)
        #expect(try ExecutableRunner.run(["replay-accel", "a", "b"]).status == 64)
        #expect(try ExecutableRunner.run(["replay-accel", "--bogus"]).status == 64)
        let help = try ExecutableRunner.run(["replay-accel", "--help"])
        #expect(help.status == 0 && help.stdout.contains("usage: gpstrackd replay-accel"))
    }

    @Test func hostileInputNeverCrashes() throws {
        let junk =
            "\u{0}\u{1},,,\n,,,,,,,,\n-,-,-,-\n0x1p3,1,2,3\n" + String(repeating: ",", count: 100_000) + "\nno newline"
        let path = try ExecutableRunner.temporaryFile("junk.csv", contents: junk)
        let r = try ExecutableRunner.run(["replay-accel", path])
        #expect(r.status == 0)
        let s = try Self.summary(r)
        #expect(s["steps"] as? Int == 0)
        #expect(s["cadence_spm"] is NSNull)
    }
}
