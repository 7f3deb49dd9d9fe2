import GPSTrackCore
import GPSTrackProtocol

/// The inputs' source on a thread of its own (gpstrackd(8), INPUTS): every configured input is
/// polled at a fixed rate, so a line flapping a thousand times a second costs no more than a
/// quiet one; each level is debounced; a settled change, a failing or unsteady input and its
/// recovery are yielded as values. The tracker stamps a reading with the fix clock.
public final class InputSource: Sendable {
    public enum Event: Sendable, Equatable {
        /// A settled reading (an input's level changed, or the battery's figures did).
        case reading(InputReading)
        /// The input cannot be read (once per outage): the file and why.
        case failed(InputName, reason: String)
        /// It reads again.
        case restored(InputName)
        /// It changed `changes` times in two seconds: its last settled level stands.
        case unsteady(InputName, changes: Int)
        /// A power supply without `capacity`: the battery is not watched (said once).
        case noCapacity(InputName, path: String)
    }

    public let config: InputConfig
    /// Seconds between polls: half the shortest debounce, from 20 ms to 250 ms.
    public let pollS: Double
    /// The battery's charge alone is passed on at most this often, its voltage alone this often.
    static let figuresEveryS = 1.0
    static let voltsEveryS = 60.0
    private let worker: StoppableThread

    public init(config: InputConfig) throws(ErrnoError) {
        self.config = config
        let shortest = config.sources.keys.map(config.debounceS).min() ?? 0.05
        pollS = min(0.25, max(0.02, shortest / 2))
        worker = try StoppableThread()
    }

    /// Starts the thread; events arrive on the returned stream.
    public func start() -> AsyncStream<Event> {
        worker.stream(buffering: .bufferingNewest(1024)) { [self] in run($0) }
    }

    /// Stops the thread and waits for it.
    public func stop() async { await worker.stop() }

    /// One input's state on the thread.
    private struct Line {
        let name: InputName
        let source: InputConfig.Source
        var debounce: InputDebounce
        var failing = false
        var toldNoCapacity = false
        var lastLevel: Bool?
        /// The battery's figures last passed on, and when.
        var sent: (pct: Int?, volts: Double?, at: Double)?
    }

    private func run(_ out: AsyncStream<Event>.Continuation) {
        defer { Liveness.shared.idle(.inputs) }
        var lines = InputName.allCases.compactMap { name -> Line? in
            guard let source = config.sources[name] else { return nil }
            let delay = name == .ignition ? config.ignitionOffDelayS : 0
            return Line(
                name: name, source: source, debounce: InputDebounce(holdS: config.debounceS(name), offDelayS: delay))
        }
        while !worker.isStopping {
            Liveness.shared.beat(.inputs)
            Liveness.shared.stallIfAsked(.inputs)
            let now = MonotonicClock.now()
            for i in lines.indices { poll(&lines[i], now: now, out) }
            Liveness.shared.idle(.inputs)
            guard worker.pause(pollS) else { return }
        }
    }

    private func poll(_ line: inout Line, now: Double, _ out: AsyncStream<Event>.Continuation) {
        let sample: InputRead.Sample
        switch InputRead.read(
            line.source, root: config.root, activeLow: config.activeLow.contains(line.name), was: line.lastLevel)
        {
        case .failure(let problem):
            if !line.failing {
                line.failing = true
                out.yield(.failed(line.name, reason: problem.text))
            }
            return
        case .success(let s): sample = s
        }
        if line.failing {
            line.failing = false
            out.yield(.restored(line.name))
        }
        if sample.noCapacity, !line.toldNoCapacity {
            line.toldNoCapacity = true
            out.yield(.noCapacity(line.name, path: line.source.text))
        }
        line.lastLevel = sample.level
        var levelChanged = false
        for change in line.debounce.take(sample.level, now: now) {
            switch change {
            case .settled: levelChanged = true
            case .unsteady(let n): out.yield(.unsteady(line.name, changes: n))
            case .steady: out.yield(.restored(line.name))
            }
        }
        guard let level = line.debounce.settled else { return }
        switch line.name {
        case .ignition, .sos:
            if levelChanged { out.yield(.reading(.level(line.name, on: level))) }
        case .power:
            // The level, or the battery's figures: a new charge at most once a second, a
            // voltage 0.1 V away at most once a minute (each reading is journaled).
            let figuresMoved =
                line.sent.map { sent in
                    (now - sent.at >= Self.figuresEveryS && sent.pct != sample.batteryPct)
                        || (now - sent.at >= Self.voltsEveryS && abs((sent.volts ?? -1) - (sample.volts ?? -1)) >= 0.1)
                } ?? true
            guard levelChanged || figuresMoved else { return }
            line.sent = (sample.batteryPct, sample.volts, now)
            out.yield(.reading(.power(online: level, batteryPct: sample.batteryPct, volts: sample.volts)))
        }
    }
}
