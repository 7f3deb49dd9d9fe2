import Foundation
import GPSTrackCore
import GPSTrackProtocol

/// gpsd's own reports, recorded by a second client (`gpspipe -w`) beside the daemon: the fixes
/// as gpsd gave them, the reference for what the daemon publishes of them.
final class TPVRecorder {
    let process = Process()
    let output: String

    /// Starts once gpsd listens on `port` (gpsfake starts it).
    init(port: Int, file: String) throws {
        output = file
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        try LiveHarness.waitFor("gpsd on port \(port)", timeout: 30) { LiveHarness.onLoopback(port, connect) }
        // Line-buffered: stdio would hold the last few kilobytes of a file back.
        LiveHarness.unmasked(process, "/usr/bin/stdbuf", ["-oL", "/usr/bin/gpspipe", "-w", "127.0.0.1:\(port)"])
        process.standardOutput = FileHandle(forWritingAtPath: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// TPVs with a position, by whole second of their time; gpsd reports an epoch in several
    /// TPVs as its sentences arrive, so later ones add to (and win over) earlier ones.
    func fixes() -> [Int: [String: Any]] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        var byTime: [Int: [String: Any]] = [:]
        // gpsd ends its lines with CR LF: one Character, not "\n".
        for line in text.split(whereSeparator: \.isNewline) {
            guard let tpv = ExecutableRunner.json(String(line)), tpv["class"] as? String == "TPV", tpv["lat"] is Double,
                let t = Timestamp.parse(tpv["time"] as? String ?? "")
            else { continue }
            byTime[Int(t.rounded(.down)), default: [:]].merge(tpv) { _, new in new }
        }
        return byTime
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
