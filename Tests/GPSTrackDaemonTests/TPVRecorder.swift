import Foundation
import GPSTrackCore
import GPSTrackProtocol

/// gpsd's own reports, recorded by a second client (`gpspipe -w`) beside the daemon: the fixes
/// as gpsd gave them, the reference for what the daemon publishes of them.
final class TPVRecorder {
    let process = Process()
    let output: String

    /// Starts once gpsd listens on `port` (gpsfake starts it), and returns once it has recorded
    /// a report of the feed's padding: it watched before the first fix. A recorder that came
    /// after it (gpspipe starting beside make test-repeat's CPU hog took longer than 60 epochs
    /// at 0.002 s a sentence) missed the first fixes, and the comparison fell short; this throws
    /// then, naming the cause: the feed's padding must outlast gpspipe's start.
    init(port: Int, file: String) throws {
        output = file
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        try LiveHarness.waitFor("gpsd on port \(port)", timeout: 30) { LiveHarness.onLoopback(port, connect) }
        // Line-buffered: stdio would hold the last few kilobytes of a file back.
        LiveHarness.unmasked(process, "/usr/bin/stdbuf", ["-oL", "/usr/bin/gpspipe", "-w", "127.0.0.1:\(port)"])
        process.standardOutput = FileHandle(forWritingAtPath: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
        var first: [String: Any]?
        try LiveHarness.waitFor("gpspipe's first report", timeout: 60) {
            first = reports().first { $0["class"] as? String == "TPV" }
            return first != nil
        }
        guard first?["lat"] == nil else { throw Late(first: "\(first ?? [:])") }
    }

    struct Late: Error, CustomStringConvertible {
        var first: String
        var description: String {
            "gpspipe began watching after the feed's first fix (its first report: \(first)): a longer padding"
        }
    }

    /// Every JSON line recorded so far.
    func reports() -> [[String: Any]] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // gpsd ends its lines with CR LF: one Character, not "\n".
        return text.split(whereSeparator: \.isNewline).compactMap { ExecutableRunner.json(String($0)) }
    }

    /// TPVs with a position, by whole second of their time; gpsd reports an epoch in several
    /// TPVs as its sentences arrive, so later ones add to (and win over) earlier ones.
    func fixes() -> [Int: [String: Any]] {
        var byTime: [Int: [String: Any]] = [:]
        for tpv in reports() {
            guard tpv["class"] as? String == "TPV", tpv["lat"] is Double,
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
