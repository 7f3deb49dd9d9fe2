import Foundation
import GPSTrackCore
import GPSTrackSim
import Testing

/// The drag detector on a seeded test set (issue "alarms on time"): drags at 0.1, 0.3 and
/// 1 m/s and hour-long swings with wind shifts, receivers of 2, 3 and 5 m error, with and
/// without multipath jumps, three seeds each, `anchor drop --radius 60` on a 35 m rode. Every
/// drag alarms within 30 s (15 s at 1 m/s) of the boat's true distance passing the radius plus
/// twice the receiver's error; no swing warns or alarms. Truth distances come from GeodSolve.
@Suite(.enabled(if: GeodSolveTruth.path != nil, "GeodSolve is installed by `make test`"))
struct AnchorDragSetTests {
    static let anchor = Coordinate(latitude: 54.3521, longitude: 10.1743)
    static let t0 = 1_790_000_000.0
    static let radius = 60.0
    static let receivers = [2.0, 3.0, 5.0]
    static let seeds: [UInt64] = [1, 2, 3]

    struct Run: Sendable, CustomStringConvertible {
        var speed: Double
        var errorM: Double
        var jumps: Bool
        var seed: UInt64
        var description: String { "\(speed) m/s, σ \(errorM) m, \(jumps ? "jumps" : "clean"), seed \(seed)" }
        /// Even seeds report gpsd's HDOP-based eph (20-30 m), odd ones an honest 2σ.
        var scenario: AnchorScenario {
            var s = AnchorScenario(errorM: errorM, swingS: speed > 0 ? 600 : 3600)
            s.jumpsPerHour = jumps ? 6 : 0
            s.gpsdEph = seed % 2 == 0
            if speed > 0 {
                s.dragMps = speed
                // Past the radius plus 2σ from the swing's reach (the drag follows the wind's
                // shifts, so its path bends), and two minutes more.
                s.dragS = Int((AnchorDragSetTests.radius + 2 * errorM - 0.5 * s.scopeM) / speed) + 120
            }
            return s
        }
        /// How late the alarm may be after the truth passes the radius plus 2σ.
        var allowedS: Double { speed >= 1 ? 15 : 30 }
    }

    static func runs(speeds: [Double]) -> [Run] {
        speeds.flatMap { v in
            receivers.flatMap { e in
                [false, true].flatMap { j in seeds.map { Run(speed: v, errorM: e, jumps: j, seed: $0) } }
            }
        }
    }

    /// The watch as the daemon runs it: defaults, dropped at the anchor at the first fix.
    static func watch(_ rec: AnchorScenario.Recording, radius: Double) -> [AnchorEvent] {
        var watch = AnchorWatch()
        var events = watch.drop(at: anchor, radiusM: radius, time: t0)
        for f in rec.fixes { events += watch.ingest(at: f.at, errorM: f.eph, time: f.time) }
        return events
    }

    static func raised(_ events: [AnchorEvent]) -> [Double] {
        events.compactMap { if case .alarm(let t, _, _, 0) = $0 { t } else { nil } }
    }

    static func warned(_ events: [AnchorEvent]) -> [Double] {
        events.compactMap { if case .warning(let t, _, _) = $0 { t } else { nil } }
    }

    @Test func everyDragAlarmsInTime() async throws {
        let runs = Self.runs(speeds: [0.1, 0.3, 1.0])
        let results = try await withThrowingTaskGroup(of: (Run, Double?, Double, Double?, Double).self) { group in
            for run in runs {
                group.addTask {
                    let rec = run.scenario.record(anchor: Self.anchor, t0: Self.t0, seed: run.seed)
                    let truth = try GeodSolveTruth.lengths(rec.truth.map { [Self.anchor, $0] })
                    let events = Self.watch(rec, radius: Self.radius)
                    let due = try #require(truth.indices.first { truth[$0] > Self.radius + 2 * run.errorM })
                    let raised = Self.raised(events).first
                    let atRaise = raised.map { truth[Int($0 - Self.t0)] }
                    #expect(
                        Self.warned(events).allSatisfy { $0 >= rec.dragStart }
                            && Self.raised(events).allSatisfy { $0 >= rec.dragStart },
                        "\(run): nothing before the drag: \(events)")
                    // The warning comes first (at 1 m/s the alarm may come with it).
                    let warned = Self.warned(events).first
                    #expect(
                        run.speed >= 1 || (warned ?? .infinity) < (raised ?? 0),
                        "\(run): warned at \(warned.map { $0 - Self.t0 } ?? -1), raised at \((raised ?? 0) - Self.t0)")
                    return (run, raised.map { $0 - rec.fixes[due].time }, rec.dragStart, atRaise, truth[due])
                }
            }
            var all: [(Run, Double?, Double, Double?, Double)] = []
            for try await r in group { all.append(r) }
            return all
        }
        var table = ["speed m/s | σ m | jumps | seed | eph | alarm after due, s | true distance at alarm, m"]
        for (run, late, _, atRaise, _) in results.sorted(by: { "\($0.0)" < "\($1.0)" }) {
            let l = try #require(late, "\(run): no alarm")
            #expect(l <= run.allowedS, "\(run): alarm \(l) s after the truth passed \(Self.radius + 2 * run.errorM) m")
            // Never crying wolf: the boat is truly at the circle (within the receiver's 2σ).
            let d = try #require(atRaise)
            #expect(d > Self.radius - 2 * run.errorM, "\(run): alarm at a true \(d) m")
            table.append(
                "\(run.speed) | \(run.errorM) | \(run.jumps ? "yes" : "no") | \(run.seed) | "
                    + "\(run.seed % 2 == 0 ? "gpsd" : "2σ") | \(Int(l.rounded())) | \(Int(d.rounded()))")
        }
        print("anchor drag set:\n" + table.joined(separator: "\n"))
        for v in [0.1, 0.3, 1.0] {
            let l = results.filter { $0.0.speed == v }.compactMap(\.1)
            print(
                "anchor drag set: \(v) m/s: \(l.count) runs, alarm after due \(Int(l.min() ?? .nan))..\(Int(l.max() ?? .nan)) s"
            )
        }
    }

    /// An hour of swinging for each receiver: no warning, no alarm; the closest the vote came to
    /// the radius is the swing's margin (its 25th percentile over 10 s, from GeodSolve's distances).
    @Test func noSwingWarnsOrAlarms() async throws {
        let runs = Self.runs(speeds: [0])
        let results = try await withThrowingTaskGroup(of: (Run, Double, Double, Double).self) { group in
            for run in runs {
                group.addTask {
                    let rec = run.scenario.record(anchor: Self.anchor, t0: Self.t0, seed: run.seed)
                    let events = Self.watch(rec, radius: Self.radius)
                    #expect(
                        Self.raised(events).isEmpty && Self.warned(events).isEmpty, "\(run): \(events.dropFirst())")
                    let truth = try GeodSolveTruth.lengths(rec.truth.map { [Self.anchor, $0] })
                    let seen = try GeodSolveTruth.lengths(rec.fixes.map { [Self.anchor, $0.at] })
                    // The boat never truly leaves its scope (the scenario is right).
                    #expect(truth.max()! <= run.scenario.scopeM + 0.01, "\(run)")
                    // The alarm's vote: the 25th percentile of 10 s; the warning's: their least.
                    var closest = (alarm: 0.0, warning: 0.0)
                    for k in 9..<seen.count {
                        let window = seen[(k - 9)...k].sorted()
                        closest = (max(closest.alarm, window[2]), max(closest.warning, window[0]))
                    }
                    return (run, closest.alarm, closest.warning, seen.max()!)
                }
            }
            var all: [(Run, Double, Double, Double)] = []
            for try await r in group { all.append(r) }
            return all
        }
        for e in Self.receivers {
            let mine = results.filter { $0.0.errorM == e }
            let alarm = mine.map(\.1).max()!
            let warning = mine.map(\.2).max()!
            print(
                "anchor swing set: σ \(e) m: \(mine.count) hours; closest to the alarm \(Self.radius - alarm) m "
                    + "(the vote's farthest \(alarm) m), to the warning \(0.8 * Self.radius - warning) m; "
                    + "farthest single fix \(mine.map(\.3).max()!) m")
        }
    }
}
