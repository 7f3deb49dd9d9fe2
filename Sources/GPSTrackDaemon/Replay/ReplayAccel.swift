import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `gpstrackd replay-accel`: runs accelerometer samples (CSV `t,x,y,z`: seconds and m/s²)
/// through the pedometer's step detector and prints a summary as the last JSON line.
public struct ReplayAccel {
    public static let usage = """
        usage: gpstrackd replay-accel FILE
          FILE holds CSV lines 't,x,y,z' (seconds, m/s²; a header line allowed); '-' reads standard input.
        """

    /// Longest line taken as a sample; longer ones are malformed.
    static let maxLineBytes = 1024

    private let path: String

    /// Parses the command's arguments (after the word `replay-accel`).
    public init(arguments: [String]) throws(ReplayError) {
        let parsed: ArgumentParser.Result
        do { parsed = try ArgumentParser(valued: [], boolean: ["help"]).parse(arguments) } catch {
            throw .usage(error.message)
        }
        if parsed.flags.contains("help") { throw .help }
        guard parsed.positionals.count == 1 else {
            throw .usage(
                parsed.positionals.isEmpty ? "missing FILE" : "expected one FILE, got \(parsed.positionals.count)")
        }
        path = parsed.positionals[0]
    }

    /// Runs the samples through the detector, writing the summary to `out` and diagnostics to `err`.
    public func run(out: OutputWriter, err: OutputWriter) -> ExitCode {
        let fd: Int32
        if path == "-" {
            fd = STDIN_FILENO
        } else {
            do { fd = try FileIO.openForReading(path) } catch {
                try? err.writeLine("gpstrackd: cannot read \(path): \(error)")
                try? err.flush()
                return .noInput
            }
        }
        defer { if fd != STDIN_FILENO { FileIO.close(fd) } }
        let name = path == "-" ? "<stdin>" : path
        var reader = LineReader(fd: fd, maxLineBytes: Self.maxLineBytes)
        var detector = StepDetector()
        var malformed = 0
        var samples = 0
        var first: Double?
        var last: Double?
        var sawContent = false
        do {
            while let line = try reader.next() {
                let parsed =
                    line.truncated ? .failure("line longer than \(Self.maxLineBytes) bytes") : Self.parse(line.bytes)
                switch parsed {
                case .blank:
                    continue
                case .sample(let s):
                    samples += 1
                    _ = detector.ingest(s)
                    if first == nil { first = s.t }
                    last = max(last ?? s.t, s.t)
                case .failure(let reason):
                    // A first line of words is the header.
                    if !sawContent && !line.truncated && line.bytes.contains(where: Self.isLetter) {
                        sawContent = true
                        continue
                    }
                    malformed += 1
                    if malformed <= Replay.maxReportedMalformed {
                        try err.writeLine("gpstrackd: \(name):\(line.number): malformed line skipped: \(reason)")
                    }
                }
                sawContent = true
            }
            if malformed > Replay.maxReportedMalformed {
                try err.writeLine("gpstrackd: \(name): \(malformed) malformed lines in all")
            }
            let summary = AccelSummary.Figures(
                steps: detector.steps, cadenceSpm: detector.cadence?.rounded(decimals: 1),
                durationS: (first.flatMap { f in last.map { $0 - f } } ?? 0).rounded(decimals: 2),
                walkingS: detector.walkingSeconds.rounded(decimals: 2), samples: samples, linesMalformed: malformed)
            try out.writeLine(ReplyEncoder.encode(AccelSummary(summary: summary)))
            try out.flush()
            try err.flush()
        } catch {
            try? err.writeLine("gpstrackd: replay-accel of \(name) failed: \(error)")
            try? err.flush()
            return .ioError
        }
        return .ok
    }

    private static func isLetter(_ c: UInt8) -> Bool {
        (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
    }

    enum Parsed {
        case blank
        case sample(AccelSample)
        case failure(String)
    }

    /// One CSV line: four finite numbers separated by commas (spaces around them allowed).
    static func parse(_ bytes: [UInt8]) -> Parsed {
        var fields: [Double] = []
        fields.reserveCapacity(4)
        var allBlank = true
        for field in bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            var f = field[...]
            while let c = f.first, c == 32 || c == 9 || c == 13 { f = f.dropFirst() }
            while let c = f.last, c == 32 || c == 9 || c == 13 { f = f.dropLast() }
            if !f.isEmpty { allBlank = false }
            guard fields.count < 4 else { return .failure("more than 4 fields") }
            guard let text = String(validating: f, as: UTF8.self), let v = Double(text), v.isFinite else {
                if allBlank && f.isEmpty && bytes.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { return .blank }
                return .failure("field \(fields.count + 1) is not a finite number")
            }
            fields.append(v)
        }
        guard fields.count == 4 else { return .failure("expected 4 fields (t,x,y,z), got \(fields.count)") }
        return .sample(AccelSample(t: fields[0], x: fields[1], y: fields[2], z: fields[3]))
    }
}
