import GPSTrackCore
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Follows gpsd on a dedicated thread and reports what happens as an `AsyncStream` of batches,
/// one per wake-up of the thread (everything decoded from one read), so the tracker is woken
/// once per read, not once per line: `GPSDConnection` connects and asks for reports (what
/// libgps's `gps_open` and `gps_stream` do, but a stop can interrupt it), and
/// the lines gpsd sends are read from its socket here and decoded by `GPSDDecoder`, the same
/// checked path as `replay` (libgps's `gps_read` would hand any line to its parser). It never gives up: gpsd absent at start, restarted, the connection dropped or
/// silent for `noDataTimeout` all lead to a reconnect with capped exponential backoff. An
/// outage is reported once, when it begins, and its end once, when data flows again.
public final class GPSDSource: Sendable {
    /// What the source reports.
    public enum Event: Sendable {
        /// A report from gpsd, decoded by libgps's unpacker.
        case record(GPSDDecoder.Record)
        /// An outage began (the first failure after data flowed, or at start).
        case lost(reason: String)
        /// Data flows again after an outage (or for the first time).
        case restored(afterSeconds: Double?)
    }

    public let host: String
    public let port: Int
    public let noDataTimeout: Double
    public let maxBackoff: Double
    private let liveness: Liveness
    /// The reader thread, its stop flag and wake pipe.
    private let worker: StoppableThread

    public init(
        host: String, port: Int, noDataTimeout: Double = 10, maxBackoff: Double = 30,
        liveness: Liveness = .shared
    ) throws(ErrnoError) {
        self.liveness = liveness
        self.host = host
        self.port = port
        self.noDataTimeout = noDataTimeout
        self.maxBackoff = maxBackoff
        worker = try StoppableThread()
    }

    /// Reports handed over and not yet taken (`took`): beyond `maxPending` a fix or a malformed
    /// line is dropped and counted; outages, restores and device reports are never dropped
    /// (a bounded `AsyncStream` would drop the oldest of whatever waits, those included).
    public static let maxPending = 4096
    private let pending = Atomic<Int>(0)
    private let droppedFixCount = Atomic<Int>(0)
    private let droppedMalformedCount = Atomic<Int>(0)
    /// Outages reported so far (`lost` events).
    let outagesReported = Atomic<Int>(0)

    /// Fixes dropped because the tracker fell `maxPending` reports behind.
    public var droppedFixes: Int { droppedFixCount.load(ordering: .relaxed) }
    /// Malformed lines dropped, unseen by the tracker, for the same reason.
    public var droppedMalformed: Int { droppedMalformedCount.load(ordering: .relaxed) }

    /// The source's counts for `status`: what it had to drop.
    public struct Stats: Sendable, Equatable {
        public var droppedFixes: Int
        public var droppedMalformed: Int
    }

    /// The counts now (each read atomically; any thread).
    public var stats: Stats { Stats(droppedFixes: droppedFixes, droppedMalformed: droppedMalformed) }

    /// The consumer calls this for each batch it takes from the stream.
    public func took(_ batch: [Event]) {
        var bounded = 0
        for event in batch { if case .record(let r) = event, Self.isBounded(r) { bounded += 1 } }
        if bounded > 0 { pending.subtract(bounded, ordering: .relaxed) }
    }

    private static func isBounded(_ r: GPSDDecoder.Record) -> Bool {
        switch r {
        case .tpv, .malformed, .sky: true
        default: false
        }
    }

    /// Adds a record to the wake-up's batch unless the consumer is `maxPending` behind (then
    /// counts it).
    private func hand(_ record: GPSDDecoder.Record, to batch: inout [Event]) {
        if Self.isBounded(record) {
            guard pending.load(ordering: .relaxed) < Self.maxPending else {
                // A SKY dropped is not counted: the next one supersedes it.
                if case .tpv = record { droppedFixCount.add(1, ordering: .relaxed) }
                if case .malformed = record { droppedMalformedCount.add(1, ordering: .relaxed) }
                return
            }
            pending.add(1, ordering: .relaxed)
        }
        batch.append(.record(record))
    }

    /// Starts the reader thread; batches of events arrive on the returned stream, in order.
    public func start() -> AsyncStream<[Event]> {
        worker.stream { [self] in run($0) }
    }

    /// Stops the reader and waits for its thread.
    public func stop() async { await worker.stop() }

    private var isStopping: Bool { worker.isStopping }

    /// Sleeps up to `seconds`, returning early (false) when asked to stop. It wakes often
    /// enough to tell the watchdog that it is alive.
    private func pause(_ seconds: Double) -> Bool {
        worker.pause(seconds, beatEvery: beatInterval) { liveness.beat(.gpsdReader) }
    }

    /// How long the reader lets a burst of gpsd's lines gather before it reads: far below an
    /// epoch (1 s at 1 Hz), the latency it adds is nothing to tracking.
    static let gatherS = 0.04

    /// The longest wait between two beats of the reader.
    private var beatInterval: Double { max(liveness.limit / 4, 0.05) }

    private func run(_ out: AsyncStream<[Event]>.Continuation) {
        let decoder = GPSDDecoder()
        var splitter = LineSplitter(maxLineBytes: GPSDDecoder.maxLineBytes)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var inOutage = false
        var outageSince: Double?
        var backoff = ReconnectBackoff(cap: maxBackoff)
        var first = true

        func fail(_ reason: String) {
            if !inOutage {
                inOutage = true
                outageSince = MonotonicClock.now()
                out.yield([.lost(reason: reason)])
                outagesReported.add(1, ordering: .relaxed)
            }
        }

        defer { liveness.idle(.gpsdReader) }
        while !isStopping {
            if !first {
                guard pause(backoff.take()) else { break }
            }
            first = false
            // Connect and send WATCH, interruptible by a stop; the lines that come back are
            // read here and checked before libgps's parser sees them (see GPSDDecoder.decode).
            // The name lookup (getaddrinfo) may take the resolver's timeouts, up to 30 s for
            // a name with no answer: the watchdog is told to allow for it.
            liveness.beat(.gpsdReader, grace: 60)
            let connection: GPSDConnection
            switch GPSDConnection.open(
                host: host, port: port, worker: worker, beatInterval: beatInterval,
                beat: { liveness.beat(.gpsdReader) })
            {
            case .connected(let c): connection = c
            case .stopped: continue
            case .failed(let why):
                fail("cannot connect to gpsd at \(host):\(port): \(why)")
                continue
            }
            let fd = connection.fd
            splitter.reset()
            var lastReport = MonotonicClock.now()
            var reason = "gpsd closed the connection"
            reading: while !isStopping {
                liveness.beat(.gpsdReader)
                let left = noDataTimeout - (MonotonicClock.now() - lastReport)
                if left <= 0 {
                    reason = "no report from gpsd for \(Int(clamping: noDataTimeout, rounding: .towardZero)) s"
                    break
                }
                guard
                    worker.waitFor(
                        fd, timeoutMS: Int32(clamping: min(left, beatInterval) * 1000, rounding: .towardZero) + 1) != 0
                else { continue }
                // gpsd writes an epoch as a burst of lines (a TPV per sentence, SKY, ...), one
                // write each: a moment's wait lets the burst gather, so one wake-up reads it
                // whole instead of one per line (a stop still ends the wait).
                _ = worker.pause(Self.gatherS)
                let n: Int
                do {
                    n = try syscall("read from gpsd") {
                        chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    }
                } catch {
                    if error.code == EAGAIN || error.code == EWOULDBLOCK { continue }
                    reason = "\(error)"
                    break
                }
                if n == 0 { break }
                splitter.append(chunk[0..<n])
                liveness.stallIfAsked(.gpsdReader)
                // Everything this read completed goes over in one batch: one wake-up of the
                // tracker per read, not per line.
                var batch: [Event] = []
                var readAt: Double?
                // One clock reading per read spaces the SKY reports read (none per line).
                let skyClock = MonotonicClock.now()
                while let line = splitter.nextSlice() {
                    let record = decoder.decode(line.bytes, truncated: line.truncated, now: skyClock)
                    if case .blank = record { continue }
                    if case .tpv = record {
                        let at = readAt ?? MonotonicClock.now()
                        readAt = at
                        lastReport = at
                        if inOutage || outageSince == nil {
                            batch.append(.restored(afterSeconds: outageSince.map { lastReport - $0 }))
                            inOutage = false
                            outageSince = lastReport
                            backoff.reset()
                        }
                    }
                    // SKY, VERSION, WATCH and the like inform nothing downstream: no need to
                    // wake the tracker for them.
                    if case .other = record { continue }
                    hand(record, to: &batch)
                }
                if !batch.isEmpty { out.yield(batch) }
            }
            connection.close()
            if !isStopping { fail(reason) }
        }
    }
}
