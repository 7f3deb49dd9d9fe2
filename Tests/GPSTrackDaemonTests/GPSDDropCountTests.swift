import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackSim
import Testing

@testable import GPSTrackDaemon

/// gpstrackd(8): when the tracker falls behind, fixes and malformed lines beyond 4,096 waiting
/// are dropped and counted (`status`: `gpsd.dropped_fixes`, `dropped_malformed`); device
/// reports are never dropped. FakeGPSD sends the malformed lines (a real gpsd never does); the
/// test takes nothing from the stream, so the tracker is as far behind as it can be.
@Suite struct GPSDDropCountTests {
    @Test func beyondTheBoundFixesAndMalformedLinesAreDroppedAndCountedExactly() async throws {
        #expect(GPSDSource.maxPending == 4096, "the documented bound")
        let fixes = (0..<(GPSDSource.maxPending + 200)).map { i in
            Fix(
                mode: 3, time: 1_773_475_200 + Double(i), latitude: 48.1 + Double(i) * 1e-4, longitude: 11.5,
                altitude: 520, eph: 4, speed: 11, track: 0)
        }
        let tpvs = fixes.map { GPSDLogWriter.tpv($0) + "\r\n" }
        // Malformed: the line ends inside the object (never parsed, counted).
        let malformed = Array(repeating: #"{"class":"TPV","mode":3,"lat":48.1"# + "\r\n", count: 300)
        // The bound fills with fixes; then 100 malformed, 200 fixes, 200 malformed, and a device
        // report, never dropped, which says every line before it was read.
        let device = #"{"class":"DEVICE","path":"/dev/ttyTEST","activated":0}"# + "\r\n"
        var lines: [String] = Array(tpvs.prefix(GPSDSource.maxPending))
        lines += malformed.prefix(100)
        lines += tpvs.suffix(200)
        lines += malformed.suffix(200)
        lines.append(device)
        let gpsd = try FakeGPSD(lines: lines, gap: 0)
        defer { gpsd.stop() }
        let source = try GPSDSource(host: "127.0.0.1", port: gpsd.port, noDataTimeout: 60)
        var delivered = (fixes: 0, malformed: 0)
        let events = source.start()
        // A referee, not a timing (the read takes about a second): a device report that never
        // comes ends the stream, and the counts below fail, rather than hanging the run.
        let referee = Task {
            guard (try? await Task.sleep(for: .seconds(120))) != nil else { return }  // cancelled: done in time
            await source.stop()
        }
        defer { referee.cancel() }
        // Read without `took`: what is delivered stays waiting. The wait ends on the device
        // report, in order after every line before it.
        read: for await batch in events {
            for event in batch {
                switch event {
                case .record(.tpv): delivered.fixes += 1
                case .record(.malformed): delivered.malformed += 1
                case .record(.device(let path, false)):
                    #expect(path == "/dev/ttyTEST")
                    break read
                default: break
                }
            }
        }
        await source.stop()
        #expect(delivered.fixes == GPSDSource.maxPending && delivered.malformed == 0, "\(delivered)")
        #expect(source.droppedFixes == 200, "every fix beyond the bound counted")
        #expect(source.droppedMalformed == 300, "every malformed line beyond the bound counted")

        var config = Configuration()
        config.pedometer = .off
        let tracker = try TrackerService(configuration: config, fences: nil, journal: Journal(target: .stderr))
        let handlers = ControlHandlers(tracker: tracker, gpsd: source, mqtt: nil, tripMode: config.tracker.tripMode)
        let line = ReplyEncoder.encode(await handlers.handle(.status).reply)
        let status = try ReplyDecoder.decode(StatusReply.self, line: line)
        #expect(status.gpsd.droppedFixes == 200 && status.gpsd.droppedMalformed == 300, "\(line)")
        await tracker.finish()
    }
}
