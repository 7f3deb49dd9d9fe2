import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The pedometer's source on a thread of its own: a hardware step counter polled in sysfs
/// once a second, or an accelerometer's IIO buffer waited on with poll(2) and run through the
/// step detector. A device that vanishes or returns garbage is reported once and looked for
/// again with capped exponential backoff; no device at all is reported once and ends the source.
public final class IIOSource: Sendable {
    /// The largest step count read from a counter (32 bits).
    static let maxCounter = 4_294_967_295
    /// What the source reports. Times are the source's own (the counter's polls on the
    /// monotonic clock, an accelerometer's sample timestamps).
    public enum Event: Sendable {
        /// Reading from a device (`iio:device0 (bma400)`), for the first time or again.
        case found(source: String, kind: String, again: Bool)
        /// No usable device: the feature is off.
        case none(reason: String)
        /// A hardware counter's reading.
        case counter(raw: Int, time: Double)
        /// Steps the detector confirmed, with the walking time they took.
        case steps(count: Int, walkingS: Double, time: Double)
        /// Time passes at the source (for the cadence).
        case tick(time: Double)
        /// The device failed (once per outage).
        case lost(reason: String)
    }

    public let root: String
    public let devRoot: String
    /// Seconds between counter polls.
    public let counterInterval: Double
    public let maxBackoff: Double
    /// The reader thread, its stop flag and wake pipe.
    private let worker: StoppableThread

    public init(root: String, devRoot: String, counterInterval: Double = 1, maxBackoff: Double = 30) throws(ErrnoError)
    {
        self.root = root
        self.devRoot = devRoot
        self.counterInterval = counterInterval
        self.maxBackoff = maxBackoff
        worker = try StoppableThread()
    }

    /// Starts the thread; events arrive on the returned stream.
    public func start() -> AsyncStream<Event> {
        worker.stream(buffering: .bufferingNewest(4096)) { [self] in run($0) }
    }

    /// Stops the thread and waits for it.
    public func stop() async { await worker.stop() }

    private var isStopping: Bool { worker.isStopping }

    /// Sleeps up to `seconds`; false when asked to stop. Sleeping is no work of its own: the
    /// watchdog does not wait for it.
    private func pause(_ seconds: Double) -> Bool {
        Liveness.shared.idle(.pedometer)
        return worker.pause(seconds)
    }

    private func run(_ out: AsyncStream<Event>.Continuation) {
        defer { Liveness.shared.idle(.pedometer) }
        var backoff = 0.5
        var everFound = false
        var inOutage = false
        while !isStopping {
            guard let device = IIODevice.find(root: root) else {
                if !everFound {
                    out.yield(.none(reason: "no IIO step counter or accelerometer under \(root)"))
                    return
                }
                if !inOutage {
                    inOutage = true
                    out.yield(.lost(reason: "no IIO step counter or accelerometer under \(root) any more"))
                }
                guard pause(backoff) else { return }
                backoff = min(backoff * 2, maxBackoff)
                continue
            }
            let announce = {
                out.yield(.found(source: device.label, kind: device.kind.rawValue, again: everFound))
                everFound = true
                inOutage = false
                backoff = 0.5
            }
            let failure =
                device.kind == .counter ? runCounter(device, out, announce) : runAccelerometer(device, out, announce)
            guard let failure, !isStopping else { return }
            if !inOutage {
                inOutage = true
                out.yield(.lost(reason: failure))
            }
            if !everFound { everFound = true }  // it was there once: look for it again
            guard pause(backoff) else { return }
            backoff = min(backoff * 2, maxBackoff)
        }
    }

    /// Polls `in_steps_input`; returns why it stopped working (nil when asked to stop).
    private func runCounter(_ device: IIODevice, _ out: AsyncStream<Event>.Continuation, _ announce: () -> Void)
        -> String?
    {
        let enable = device.path + "/in_steps_en"
        if IIODevice.exists(enable), IIODevice.readText(enable) != "1" { IIODevice.writeText(enable, "1") }
        var announced = false
        while !isStopping {
            // The read must end within the watchdog's limit: a driver stuck in it is a stall.
            Liveness.shared.beat(.pedometer)
            Liveness.shared.stallIfAsked(.pedometer)
            guard let text = IIODevice.readText(device.path + "/in_steps_input") else {
                return "\(device.label): in_steps_input cannot be read (device gone?)"
            }
            // A hardware counter is at most 32 bits wide; beyond, a restart's advance added to
            // the total could overflow it (gpstrackd(8), PEDOMETER).
            guard let raw = Int(text), raw >= 0, raw <= Self.maxCounter else {
                return "\(device.label): in_steps_input holds '\(text.prefix(40))', not a step count"
            }
            if !announced {
                announce()
                announced = true
            }
            out.yield(.counter(raw: raw, time: MonotonicClock.now()))
            guard pause(counterInterval) else { return nil }
        }
        return nil
    }

    /// Reads the IIO buffer through the step detector; returns why it stopped working.
    private func runAccelerometer(_ device: IIODevice, _ out: AsyncStream<Event>.Continuation, _ announce: () -> Void)
        -> String?
    {
        let buffer: IIOAccelBuffer
        do { buffer = try IIOAccelBuffer(device: device, devRoot: devRoot) } catch {
            return "\(device.label): \(error)"
        }
        defer { buffer.close() }
        announce()
        var detector = StepDetector()
        var reported = (steps: 0, walking: 0.0)
        var lastTick = -Double.infinity
        var latest: Double?
        // Wake-ups at least four times per watchdog limit, so that a quiet buffer is no stall.
        let wait = Int32(clamping: min(5, max(Liveness.shared.limit / 4, 0.05)) * 1000, rounding: .towardZero)
        while !isStopping {
            Liveness.shared.beat(.pedometer)
            Liveness.shared.stallIfAsked(.pedometer)
            let revents = worker.waitFor(buffer.fd, timeoutMS: wait)
            if isStopping { return nil }
            if revents != 0 {
                // Steps are reported as the detector confirms them, with their samples' time.
                let read: Int
                do {
                    read = try buffer.drain { s in
                        if detector.ingest(s) > 0 {
                            out.yield(
                                .steps(
                                    count: detector.steps - reported.steps,
                                    walkingS: detector.walkingSeconds - reported.walking,
                                    time: s.t))
                            reported = (detector.steps, detector.walkingSeconds)
                            lastTick = s.t
                        }
                        latest = s.t
                    }
                } catch { return error.description }
                // An error or hang-up with nothing to read would wake poll at once, forever.
                if read == 0 && revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    return "\(device.label): the buffer device reports an error"
                }
                if buffer.garbageRun > 1000 {
                    return "\(device.label): the buffer returns garbage (no accelerometer reads over 50 g)"
                }
            }
            if let t = latest, t - lastTick >= 2 {
                out.yield(.tick(time: t))
                lastTick = t
            }
        }
        return nil
    }
}
