import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The odometer against an independent reference on real and simulated logs: the receiver's
/// own Doppler speed integrated over time (trapezoidal, by this test from the log, never by the
/// code under test; a speed under 0.3 m/s is a standing receiver's noise and counts as 0: the
/// simulated receiver's 0.1 m/s per axis alone integrates to 900 m over two parked hours). A log
/// qualifies when its speeds are the receiver's own and cover the way: at least 60 epochs, a
/// course with the speed in 90 % of them (gpsd makes up speeds without one for receivers that
/// send none), no gap over 10 s, time never going back, at most 5 % of its epochs with an
/// error estimate over the 50 m limit. A qualifying moving log is within 5 % of its Doppler; a standing one
/// travels at most 10 m. The captures that do not qualify are listed with why (the odometer's
/// check against their displacement is CaptureOdometerTests').
@Suite struct DopplerReferenceTests {
    struct Doppler {
        var integralM = 0.0
        var epochs = 0
        /// Why the log does not qualify; nil when it does.
        var unfit: String?
    }

    static func doppler(path: String) throws -> Doppler {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var epochs: [(t: Double, speed: Double, track: Bool, eph: Double?)] = []
        for line in text.split(whereSeparator: \.isNewline) {
            guard let o = ExecutableRunner.json(String(line)), o["class"] as? String == "TPV",
                (o["mode"] as? Int ?? 0) >= 2, let time = (o["time"] as? String).flatMap(Timestamp.parse),
                let speed = o["speed"] as? Double
            else { continue }
            let epoch = (time, speed, o["track"] != nil, o["eph"] as? Double)
            // gpsd's several TPVs of an epoch: the last (most complete) one.
            if epochs.last?.t == time { epochs[epochs.count - 1] = epoch } else { epochs.append(epoch) }
        }
        var d = Doppler(epochs: epochs.count)
        for (a, b) in zip(epochs, epochs.dropFirst()) {
            if b.t <= a.t { d.unfit = d.unfit ?? "time goes back" }
            if b.t - a.t > 10 { d.unfit = d.unfit ?? "a gap of \(Int(b.t - a.t)) s" }
            let (va, vb) = (a.speed < 0.3 ? 0 : a.speed, b.speed < 0.3 ? 0 : b.speed)
            d.integralM += (va + vb) / 2 * max(0, b.t - a.t)
        }
        if epochs.count < 60 { d.unfit = d.unfit ?? "\(epochs.count) epochs with a speed" }
        if Double(epochs.filter(\.track).count) < 0.9 * Double(epochs.count) {
            d.unfit = d.unfit ?? "speeds without a course (gpsd's own)"
        }
        if Double(epochs.filter { ($0.eph ?? 0) > 50 }.count) > 0.05 * Double(epochs.count) {
            d.unfit = d.unfit ?? "error estimates over 50 m"
        }
        return d
    }

    /// The summary's traveled distance of a replay (default trip mode).
    static func traveled(_ path: String) throws -> Double {
        let r = try ExecutableRunner.run(["replay", path])
        try #require(r.status == 0, "\(path): \(r.stderr)")
        let summary = try #require(r.lines.compactMap(ExecutableRunner.json).last?["summary"] as? [String: Any])
        return try #require(summary["traveled_m"] as? Double)
    }

    static func judge(_ name: String, moving: Bool, doppler d: Doppler, traveled: Double) {
        if moving {
            #expect(
                abs(traveled / d.integralM - 1) <= 0.05, "\(name): \(traveled) m, Doppler \(d.integralM) m")
            print("DopplerReferenceTests: \(name): \(traveled) m, Doppler \(d.integralM) m")
        } else {
            #expect(traveled <= 10, "\(name): \(traveled) m standing")
        }
    }

    @Test func theCapturesWithTheirOwnDopplerTravelWithin5PercentOfIt() throws {
        let captures = try CaptureOdometerTests.captures()
        var judged: [String] = []
        var unfit: [String] = []
        for c in captures {
            let path = CaptureOdometerTests.folder.appendingPathComponent("json/\(c.name).json").path
            let d = try Self.doppler(path: path)
            if c.kind == "STATIONARY" {
                Self.judge(c.name, moving: false, doppler: d, traveled: try Self.traveled(path))
                judged.append(c.name)
            } else if let why = d.unfit {
                unfit.append("\(c.name): \(why)")
            } else {
                Self.judge(c.name, moving: true, doppler: d, traveled: try Self.traveled(path))
                judged.append(c.name)
            }
        }
        print(
            "DopplerReferenceTests: judged \(judged.count) captures; not qualifying: \(unfit.joined(separator: "; "))")
        #expect(judged.count >= 13, "12 standing and at least one moving capture with its own Doppler")
    }

    /// The bundled sample and a seeded day of two drives and a walk (about four hours) written as
    /// gpsd 3.22 reports them.
    @Test func simulatedDaysTravelWithin5PercentOfTheirDoppler() throws {
        let sample = ExecutableRunner.packageRoot.appendingPathComponent("samples/walk-and-drive.gpsd.json").path
        var logs = [("sample", sample)]
        let day = Simulator.run(DayScenario.make(seed: 7).scenario, seed: 7)
        var text = GPSDLogWriter.header.joined(separator: "\n") + "\n"
        for fix in day.fixes { text += GPSDLogWriter.tpv(fix) + "\n" }
        logs.append(("seeded day", try ExecutableRunner.temporaryFile("doppler-day-7.json", contents: text)))
        for (name, path) in logs {
            let d = try Self.doppler(path: path)
            #expect(d.unfit == nil, "\(name): \(d.unfit ?? "")")
            Self.judge(name, moving: true, doppler: d, traveled: try Self.traveled(path))
        }
    }
}
