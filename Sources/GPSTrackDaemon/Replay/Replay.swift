import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `gpstrackd replay`: runs a gpsd JSON log (as `gpspipe -w` records it) through the same
/// decoder and core as the live daemon, printing events and a final summary as JSON lines.
public struct Replay {
    public static let usage = """
        usage: gpstrackd replay [--config FILE] [--fences FILE] [--distance-filter M] [--max-error M] LOG
          LOG is a gpsd JSON log (gpspipe -w); '-' reads standard input.
        """

    /// Malformed lines reported one by one on stderr before they are only counted.
    public static let maxReportedMalformed = 20

    private let configuration: Configuration
    private let logPath: String
    private let fenceIndex: FenceIndex?

    /// Parses the replay command's arguments (after the word `replay`) and loads the config.
    public init(arguments: [String]) throws(ReplayError) {
        let parser = ArgumentParser(valued: ["config", "fences", "distance-filter", "max-error"], boolean: ["help"])
        let parsed: ArgumentParser.Result
        do { parsed = try parser.parse(arguments) } catch { throw .usage(error.message) }
        if parsed.flags.contains("help") { throw .help }
        guard parsed.positionals.count == 1 else {
            throw .usage(
                parsed.positionals.isEmpty ? "missing LOG" : "expected one LOG, got \(parsed.positionals.count)")
        }
        var config = Configuration()
        if let path = parsed.options["config"] {
            do { config = try FileIO.loadConfiguration(path) } catch { throw .config(error) }
        }
        for (flag, key) in [("distance-filter", "distance_filter_m"), ("max-error", "max_horizontal_error_m")] {
            guard let value = parsed.options[flag] else { continue }
            do { try ConfigParser.apply(key: key, value: value, to: &config, source: "--\(flag)") } catch {
                throw .usage("--\(flag): \(error.message)")
            }
        }
        if let fences = parsed.options["fences"] {
            config.fencesPath = fences
            config.origins["fences"] = "--fences"
        }
        if let path = config.fencesPath {
            do { fenceIndex = try FenceLoader.load(path) } catch {
                throw .fences(error, origin: config.origin(of: "fences"))
            }
        } else {
            fenceIndex = nil
        }
        configuration = config
        logPath = parsed.positionals[0]
    }

    /// Runs the replay, writing JSON lines to `out` and diagnostics to `err`.
    public func run(out: OutputWriter, err: OutputWriter) -> ExitCode {
        let fd: Int32
        if logPath == "-" {
            fd = STDIN_FILENO
        } else {
            do { fd = try FileIO.openForReading(logPath) } catch {
                try? err.writeLine("gpstrackd: cannot read \(logPath): \(error)")
                try? err.flush()
                return .noInput
            }
        }
        defer { if fd != STDIN_FILENO { FileIO.close(fd) } }

        var reader = LineReader(fd: fd, maxLineBytes: GPSDDecoder.maxLineBytes)
        let decoder = GPSDDecoder()
        // The live daemon's feed: each receiver's epochs, the one followed, the session.
        var feed = FeedSession(
            session: TrackingSession(config: configuration.tracker, fences: fenceIndex), device: configuration.device)
        var tpvCount = 0
        var malformed = 0
        // The steps of one TPV, in one buffer reused from TPV to TPV.
        var steps: [FeedSession.Step] = []
        let name = logPath == "-" ? "<stdin>" : logPath
        do {
            while let line = try reader.nextSlice() {
                switch decoder.decode(line.bytes, truncated: line.truncated) {
                case .tpv(let fix):
                    tpvCount += 1
                    steps.removeAll(keepingCapacity: true)
                    feed.take(fix, into: &steps)
                    try run(steps, in: &feed, to: out)
                case .device(let path, activated: false):
                    // As live: the removed receiver's last epochs, then a failover or a lost fix.
                    let (steps, removal) = feed.remove(path, current: nil)
                    try run(steps, in: &feed, to: out)
                    if case .followedGone = removal { try emit(feed.session.fixLost(.receiverRemoved), to: out) }
                case .malformed(let reason):
                    malformed += 1
                    if malformed <= Self.maxReportedMalformed {
                        try err.writeLine("gpstrackd: \(name):\(line.number): malformed line skipped: \(reason)")
                    }
                case .other(let className) where className == ReplayInput.className:
                    switch ReplayInput.parse(Array(line.bytes)) {
                    case .success(let (reading, time)):
                        // The epochs before it are complete, as the live daemon's were when it
                        // read the input (its gpsd source ends an epoch after 40 ms of quiet).
                        try run(feed.flush(), in: &feed, to: out)
                        try emit(feed.session.input(reading, time: time), to: out)
                    case .failure(let e):
                        malformed += 1
                        if malformed <= Self.maxReportedMalformed {
                            try err.writeLine("gpstrackd: \(name):\(line.number): malformed line skipped: \(e.reason)")
                        }
                    }
                case .other, .device, .sky, .blank:
                    break
                }
            }
            try run(feed.flush(), in: &feed, to: out)
            // The feed's end: what the odometer held back goes into the summary.
            _ = feed.session.settle()
            if malformed > Self.maxReportedMalformed {
                try err.writeLine("gpstrackd: \(name): \(malformed) malformed lines in all")
            }
            try out.writeLine(Self.summary(feed.session, tpvCount: tpvCount, malformed: malformed))
            try out.flush()
            try err.flush()
        } catch {
            try? err.writeLine("gpstrackd: replay of \(name) failed: \(error)")
            try? err.flush()
            return .ioError
        }
        return .ok
    }

    /// Ingests the feed's epochs, writing their events (a failover is told by the live
    /// daemon's journal alone: its sequenced events are the same).
    private func run(_ steps: [FeedSession.Step], in feed: inout FeedSession, to out: OutputWriter) throws(ErrnoError) {
        for case .epoch(let epoch) in steps { try emit(feed.session.ingest(epoch), to: out) }
    }

    private func emit(_ events: [TrackingSession.Sequenced], to out: OutputWriter) throws(ErrnoError) {
        for event in events { try out.writeLine(EventJSON.encode(event)) }
    }

    /// The final summary line.
    static func summary(_ session: TrackingSession, tpvCount: Int, malformed: Int) -> String {
        ReplyEncoder.encode(ReplaySummary(session, tpvCount: tpvCount, malformed: malformed))
    }
}

/// Why a replay could not start.
public enum ReplayError: Error {
    case help
    case usage(String)
    case config(ConfigError)
    /// A fences file refused; `origin` is where it was named ("FILE:LINE: ", or "").
    case fences(FenceError, origin: String)
}
