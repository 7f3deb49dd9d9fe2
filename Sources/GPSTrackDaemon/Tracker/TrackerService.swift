import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The actor that owns the tracking state: every gpsd report, outage and reload passes through
/// it, in order, and it logs what happens. The core does the deciding; this does the telling.
public actor TrackerService {
    /// The actor's own thread: its SQLite commits, pruning and outbox writes block there, not
    /// on the cooperative pool.
    private nonisolated let executor: ThreadExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// The same thread as a task executor, for a task that mostly runs on this actor.
    public nonisolated var taskExecutor: any TaskExecutor { executor }
    /// The receivers' epochs, the one followed, and the session (the same as replay's).
    var feed: FeedSession
    var session: TrackingSession {
        get { feed.session }
        _modify { yield &feed.session }
    }
    /// Which receiver is followed.
    var selector: ReceiverSelector { feed.selector }
    let journal: Journal
    let configuration: Configuration
    var lastStatusTime = -Double.infinity
    var malformed = 0
    var malformedUnlogged = 0
    var lastMalformedLog = -Double.infinity
    /// The monotonic clock: rate limits, the anchor watch between fixes, ages and uptime (a
    /// test's own, in-process, moved only by the test).
    let clock: @Sendable () -> Double
    var gpsdConnected = false
    var device: String?
    var lastFixReceived: Double?
    var gpsdReconnects = 0
    /// The followed receiver's last SKY report (satellites and DOPs).
    var sky: GPSDDecoder.Sky?
    /// The clock check: system time minus GPS time at the last check, whether it is out of line.
    var clockOffsetS: Double?
    var clockOutOfLine = false
    var lastClockCheck = -Double.infinity
    /// The nonces of encrypted commands let in, with their `tst`, kept `command_max_age_s`
    /// (`TrackerService+Replay`).
    var seenNonces: [[UInt8]: Double] = [:]
    /// When the tracker was made, on `clock`.
    let startedAt: Double
    /// The gpsd source this tracker follows, for its stats in `status` (none in replay).
    var gpsdSource: GPSDSource?

    /// The store and the MQTT publisher, for the control commands' queries and `status`.
    let store: Store?
    let mqtt: MQTTPublisher?
    /// The sinks, in order: the store first, then the journal and watchers, the pedometer, MQTT
    /// and the outlets. The journal's is the same object, kept typed: every notice goes there.
    let sinks: [any TrackerSink]
    let journalSink: JournalSink
    /// The pedometer's sink, for its IIO source, `status` and `steps`.
    var stepsSink: StepsSink? { sinks.lazy.compactMap { $0 as? StepsSink }.first }
    /// The OwnTracks MQTT sink, for the waypoints and `reportLocation`.
    var ownTracks: OwnTracksSink? { sinks.lazy.compactMap { $0 as? OwnTracksSink }.first }
    /// The fences' values kept between steps (`TrackerService+Step`).
    var fenceFactsCache = FenceFactsCache()
    /// Whether the sinks heard their start (before the first step).
    var sinksStarted = false
    /// Input readings waiting for the first fix (`TrackerService+Inputs`).
    var pendingInputs: [InputName: InputReading] = [:]
    /// The feed's steps for one TPV, one buffer reused from TPV to TPV (`take`).
    var stepBuffer: [FeedSession.Step] = []

    public init(
        configuration: Configuration, fences: FenceIndex?, journal: Journal, store: Store? = nil,
        mqtt: MQTTPublisher? = nil, outlets: [any TrackerSink] = [],
        clock: @escaping @Sendable () -> Double = MonotonicClock.now
    ) throws(ErrnoError) {
        executor = try ThreadExecutor()
        self.clock = clock
        startedAt = clock()
        self.configuration = configuration
        self.journal = journal
        self.store = store
        self.mqtt = mqtt
        feed = FeedSession(
            session: TrackingSession(config: configuration.tracker, fences: fences), device: configuration.device)
        journalSink = JournalSink(journal: journal)
        let stepsSink =
            configuration.pedometer == .auto
            ? StepsSink(figures: StepFigures(strideM: configuration.strideM, file: store?.file), mqtt: mqtt)
            : nil
        let ownTracks = mqtt.map { OwnTracksSink(mqtt: $0, assumedErrorM: configuration.tracker.assumedErrorM) }
        let storeSink = store.map {
            StoreSink(store: $0, tripMode: configuration.tracker.tripMode, retentionDays: configuration.retentionDays)
        }
        let builtIn: [(any TrackerSink)?] = [storeSink, journalSink, stepsSink, ownTracks]
        sinks = builtIn.compactMap { $0 } + outlets
        if let store {
            let restored = store.restore()
            feed.session.restore(
                trip: restored.trip, counters: restored.counters, seq: restored.seq, fences: restored.fences,
                trips: configuration.tracker.tripMode == .auto ? restored.motion : nil)
            if let trip = restored.trip {
                journalSink.log(
                    LogEntry(
                        event: .restored, priority: .info,
                        message:
                            "Carrying on: trip of \(EventLog.metres(trip.traveledM)), events from #\(restored.seq + 1), "
                            + "\(restored.fences.count) fences remembered, \(restored.counters?.total ?? 0) fixes counted",
                        fields: [
                            (.traveledM, EventLog.number(trip.traveledM)), (.seq, String(restored.seq)),
                            (.fixesTotal, String(restored.counters?.total ?? 0)),
                            (.fixesAccepted, String(restored.counters?.accepted ?? 0)),
                        ]))
            }
        }
    }

    /// Hands one step to the sinks in order (the store first: nobody hears of an event before
    /// it is committed), then journals what they asked for.
    func deliver(
        _ events: [TrackingSession.Sequenced], force: Bool = false, fix: Fix? = nil,
        outcome: Tracker.Outcome = .none
    ) {
        if !sinksStarted {
            sinksStarted = true
            for sink in sinks { sink.start(session.geofences?.index.fences) }
        }
        let step = step(events, force: force, fix: fix, outcome: outcome)
        var entries: [LogEntry] = []
        for sink in sinks { entries += sink.take(step) }
        for entry in entries { emit(entry) }
    }

    /// Commits what waits (the store's batch), whatever its size.
    func persist(force: Bool = true) { deliver([], force: force) }

    /// Sends every event, as a JSON line, to `sink` from now on.
    public func setWatchSink(_ sink: @escaping @Sendable (String) -> Void) {
        journalSink.watch = sink
    }

    /// Logs an entry and streams it to watchers (see `JournalSink.tell`).
    func emit(_ entry: LogEntry, json: String? = nil) { journalSink.tell(entry, json: json) }

    /// Journals an entry and counts it by its event name.
    func log(_ entry: LogEntry) { journalSink.log(entry) }

    /// Publishes the circular fences as OwnTracks waypoints (at start and after a reload).
    /// Lets Home Assistant's sink read the day's distance and the pedometer's total.
    public func linkHomeAssistant() {
        guard let ha = sinks.lazy.compactMap({ $0 as? HASink }).first else { return }
        ha.day = sinks.lazy.compactMap { $0 as? DayDistance }.first
        if let steps = stepsSink { ha.steps = { steps.figures.status()?.total } }
    }

    public func publishWaypoints() { ownTracks?.publishWaypoints(session.geofences?.index.fences) }

    /// The stop's last word on storage, after MQTT stopped: what could not be written, named
    /// (see `Store.stopEntry`); nothing when all was written.
    public func reportStorageAtStop() {
        if let entry = store?.stopEntry(unsavedMessages: mqtt?.unsavedKinds ?? [:]) { journal.log(entry) }
    }

    /// Handles one report or state change of the gpsd source.
    public func handle(_ event: GPSDSource.Event) {
        switch event {
        case .record(.tpv(let fix)):
            Liveness.shared.stallIfAsked(.tracker)
            take(fix)
        case .record(.device(let path, let activated)):
            guard !activated else {
                device = path ?? device
                return
            }
            removeDevice(path)
        case .record(.sky(let s)):
            noteSky(s)
        case .record(.malformed(let reason)):
            noteMalformed(reason)
        case .record(.other), .record(.blank):
            break
        case .lost(let reason):
            gpsdConnected = false
            emit(
                LogEntry(
                    event: .gpsdLost, priority: .warning, message: "Lost gpsd: \(reason); retrying",
                    fields: [(.gpsd, "\(configuration.gpsdHost):\(configuration.gpsdPort)")]))
            loseFix(.gpsdLost)
            sky = nil  // after the pending epoch went with its SKY (issue 29)
        case .restored(let after):
            gpsdConnected = true
            var message = "Receiving from gpsd at \(configuration.gpsdHost):\(configuration.gpsdPort)"
            if let after {
                message += " again after \(Int(clamping: after)) s"
                gpsdReconnects += 1
            }
            emit(
                LogEntry(
                    event: .gpsdConnected, priority: .info, message: message,
                    fields: [(.gpsd, "\(configuration.gpsdHost):\(configuration.gpsdPort)")]))
        }
    }

    /// Handles one report of the pedometer's source.
    public func handleSteps(_ event: IIOSource.Event) {
        if let entry = stepsSink?.figures.handle(event) { emit(entry) }
    }

    /// Reloads the fences file; a bad file leaves the fences in force and says why. Returns
    /// the error message, or nil on success.
    @discardableResult
    public func reloadFences() -> String? {
        guard let path = configuration.fencesPath else {
            let message = "no fences file is configured"
            emit(LogEntry(event: .fencesReloadFailed, priority: .err, message: "Reload asked, but \(message)"))
            return message
        }
        do {
            // The pushed waypoints (setWaypoints from the broker) stay, merged in.
            let index = try PushedWaypoints.merged(
                FenceLoader.load(path), stateDirectory: configuration.stateDirectory, file: path)
            putInForce(index)
            emit(
                LogEntry(
                    event: .fencesReloaded, priority: .info,
                    message: "Reloaded \(index?.fences.count ?? 0) fences from \(path)",
                    fields: [(.fences, String(index?.fences.count ?? 0))]))
            return nil
        } catch {
            emit(
                LogEntry(
                    event: .fencesReloadFailed, priority: .err,
                    message: "Fences not reloaded, the previous ones stay in force: \(error)"))
            return "fences not reloaded, the previous ones stay in force: \(error)"
        }
    }

    /// Puts a fence index in force (a reload, a pushed set): fences kept carry their state over,
    /// and every sink hears of it.
    func putInForce(_ index: FenceIndex?) {
        session.replaceFences(index)
        fenceFactsCache = FenceFactsCache()
        for sink in sinks { sink.fencesReplaced(index?.fences) }
    }

    /// Ends the run: the pending epoch is processed and the trip's figures logged.
    public func finish() {
        flushEpochs()
        // The feed's end: what the odometer held back goes into the stored figures.
        session.settle()
        let last = step([], force: true)
        for sink in sinks { sink.finish(last) }
        let trip = session.tracker.trip
        let counters = session.tracker.counters
        log(
            LogEntry(
                event: .summary, priority: .info,
                message:
                    "Trip: \(EventLog.metres(trip.traveledM)) traveled, \(EventLog.metres(trip.straightLineM)) in a straight line; "
                    + "\(counters.accepted) of \(counters.total) fixes accepted",
                fields: [
                    (.traveledM, EventLog.number(trip.traveledM)),
                    (.straightLineM, EventLog.number(trip.straightLineM)),
                    (.fixesTotal, String(counters.total)), (.fixesAccepted, String(counters.accepted)),
                    (.seq, String(session.seq)),
                ]))
    }

    /// Tells the watchdog that the actor is responsive.
    public func ping() { Liveness.shared.pingAnswered() }

    /// The trip's traveled distance so far, metres.
    public var traveledM: Double { session.tracker.trip.traveledM }

    func loseFix(_ reason: FixLoss) {
        flushEpochs()
        deliver(session.fixLost(reason), force: true)
    }

    func process(_ fix: Fix) {
        checkClock(fix)
        let events = session.ingest(fix)
        let outcome = session.tracker.lastOutcome
        if case .accepted = outcome { lastFixReceived = clock() }
        deliver(events, fix: fix, outcome: outcome)
        if !pendingInputs.isEmpty { applyPendingInputs() }
        if let t = fix.time, t - lastStatusTime >= 5 || !events.isEmpty {
            lastStatusTime = t
            Notifier.status(statusLine())
        }
    }
}
