import Foundation
import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import GPSTrackSim
import GPSTrackTestKit
import Testing

/// Replay is the live path: a gpsd log of two receivers (the second better, then removed, then
/// the first falling silent for a while) through `gpstrackd replay` and through the tracking
/// actor as the gpsd source hands it the same lines give the same sequenced event lines, byte
/// for byte, because both go through one `FeedSession`.
@Suite struct FeedSessionTests {
    /// Two receivers on one walk: A from the start; B (more accurate) from 60 s, removed at
    /// 400 s; A silent from 600 s to 640 s, then back.
    static func twoReceiverLog() -> [String] {
        var rng = SeededRandom(seed: 41)
        let walk = Scenario.walk(lengthM: 1200, rng: &rng)
        var precise = ReceiverModel()
        precise.wanderSigmaM = 1
        let a = Simulator.run(walk, seed: 41).fixes
        let b = Simulator.run(walk, model: precise, seed: 42).fixes
        var lines = GPSDLogWriter.header
        var bTimes: [Double: Fix] = [:]
        for var f in b {
            f.device = "/dev/ttyB"
            if let t = f.time { bTimes[t] = f }
        }
        var removed = false
        for var f in a {
            guard let t = f.time else { continue }
            let s = t - (a.first?.time ?? t)
            f.device = "/dev/ttyA"
            if !(600..<640).contains(s) { lines.append(GPSDLogWriter.tpv(f)) }
            if s >= 60, s < 400, let g = bTimes[t] { lines.append(GPSDLogWriter.tpv(g)) }
            if s >= 400, !removed {
                lines.append(#"{"class":"DEVICE","path":"/dev/ttyB","activated":0}"#)
                removed = true
            }
        }
        return lines
    }

    @Test func aTwoReceiverLogDecidesInReplayAsLive() async throws {
        let lines = Self.twoReceiverLog()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("feed-session-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("two.json").path
        let replayed = dir.appendingPathComponent("replayed.json").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)

        // Replay, as `gpstrackd replay LOG` runs it.
        let fd = open(replayed, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        let errPath = dir.appendingPathComponent("err").path
        let errFD = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let code = try Replay(arguments: [log]).run(out: OutputWriter(fd: fd), err: OutputWriter(fd: errFD))
        close(fd)
        close(errFD)
        #expect(code == .ok)
        let replayLines = try String(contentsOfFile: replayed, encoding: .utf8).split(separator: "\n")
            .map(String.init).filter { $0.hasPrefix(#"{"event""#) }

        // Live: the same lines through the decoder to the tracking actor, as the gpsd source does.
        let h = try await TrackerHarness(store: false)
        let decoder = GPSDDecoder()
        for line in lines { await h.tracker.handle(.record(decoder.decode(Array(line.utf8)[...]))) }
        await h.endFeed()
        let liveLines = h.watchLines.filter { $0.hasPrefix(#"{"event""#) && $0.contains(#""seq":"#) }
        await h.close()

        #expect(h.journal.entries(.failover).count >= 2, "failed over to B and back to A")
        #expect(replayLines.count >= 3, "\(replayLines)")
        #expect(
            replayLines == liveLines,
            "replay:\n\(replayLines.joined(separator: "\n"))\nlive:\n\(liveLines.joined(separator: "\n"))")
    }
}
