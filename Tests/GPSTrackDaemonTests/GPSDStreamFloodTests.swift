import Foundation
import GPSTrackSim
import Testing

@testable import GPSTrackDaemon

/// The gpsd source's stream under a flood the tracker does not keep up with (issue 13): fixes
/// beyond `maxPending` are dropped and counted; the outage that follows is never dropped.
@Suite struct GPSDStreamFloodTests {
    @Test func aFloodKeepsRestoredAndLostAndCountsTheDroppedFixes() async throws {
        let trace = LiveDaemonTests.walk(seconds: 7000, seed: 5)
        let lines = trace.fixes.map { GPSDLogWriter.tpv($0) + "\r\n" }
        let extra = lines.count - GPSDSource.maxPending
        #expect(extra > 1000, "the flood is larger than what may wait")
        let gpsd = try FakeGPSD(lines: lines, gap: 0)
        let source = try GPSDSource(host: "127.0.0.1", port: gpsd.port, noDataTimeout: 60)
        let events = source.start()
        // Nothing is taken from the stream until gpsd has sent everything and gone away.
        let deadline = Date().addingTimeInterval(60)
        // Polls the count, with the deadline.
        while source.droppedFixes < extra, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(source.droppedFixes == extra, "every fix beyond \(GPSDSource.maxPending) waiting is counted")
        gpsd.stop()
        // A referee of its own: the flood's wait may have used most of the first one on a
        // loaded machine (CI's four test processes), and the outage is what is checked below.
        let outageDeadline = Date().addingTimeInterval(60)
        while source.outagesReported.load(ordering: .relaxed) == 0, Date() < outageDeadline {
            try await Task.sleep(nanoseconds: 20_000_000)  // polls the count
        }
        await source.stop()
        var fixes = 0
        var restored = 0
        var lost = 0
        var order: [String] = []
        for await batch in events {
            source.took(batch)
            for e in batch {
                switch e {
                case .record(.tpv): fixes += 1
                case .restored:
                    restored += 1
                    order.append("restored")
                case .lost:
                    lost += 1
                    order.append("lost")
                default: break
                }
            }
        }
        #expect(fixes == GPSDSource.maxPending)
        #expect(fixes + source.droppedFixes == lines.count, "each fix either delivered or counted")
        #expect(order == ["restored", "lost"], "the connection's start and end both arrive, after the flood")
    }
}
