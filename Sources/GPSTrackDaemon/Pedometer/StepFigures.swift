import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The tracker actor's pedometer part: what the IIO source reports becomes the pedometer's
/// figures, their journal entries, their rows in the state database, the `status` and `steps`
/// answers and OwnTracks `steps` messages. Owned and called by the actor only.
struct StepFigures {
    private(set) var pedometer: Pedometer
    private(set) var source: (label: String, kind: String)?
    private let log: StepLog?
    /// The source's latest time (its own clock), for the cadence.
    private var now: Double?
    private var unsaved = (steps: 0, distanceM: 0.0, walkingS: 0.0)
    private var lastCommit = -Double.infinity
    private var counterResets = 0

    /// Seconds (monotonic) that counted steps may wait before they are committed.
    static let commitInterval = 5.0

    init(strideM: Double, databasePath: String?) {
        self.init(strideM: strideM, file: databasePath.map { StateDatabase(path: $0) })
    }

    /// The figures carried on from, and kept in, the state database `file` (none: memory only).
    init(strideM: Double, file: StateDatabase?) {
        log = file.map { StepLog(file: $0) }
        pedometer = Pedometer(defaultStrideM: strideM, memory: log?.load() ?? Pedometer.Memory())
    }

    /// Takes one report of the source; returns the journal entry it calls for, if any.
    mutating func handle(_ event: IIOSource.Event) -> LogEntry? {
        switch event {
        case .found(let label, let kind, let again):
            source = (label, kind)
            return LogEntry(
                event: .pedometerFound, priority: .info,
                message: again ? "Pedometer \(label) reads again" : "Pedometer: \(kind) \(label)",
                fields: [(.source, label), (.kind, kind)])
        case .none(let reason):
            source = nil
            return LogEntry(event: .pedometerOff, priority: .info, message: "No pedometer: \(reason)")
        case .lost(let reason):
            return LogEntry(
                event: .pedometerLost, priority: .warning, message: "Pedometer lost: \(reason); looking again",
                fields: [(.source, source?.label ?? "")])
        case .counter(let raw, let time):
            let before = pedometer.memory
            let reading = pedometer.counter(raw, at: time)
            now = time
            account(before)
            switch reading {
            case .reset(let n):
                counterResets += 1
                save(force: true)
                return LogEntry(
                    event: .pedometerReset, priority: .info,
                    message: "Step counter of \(source?.label ?? "?") went back (reset); \(n) steps since counted",
                    fields: [(.source, source?.label ?? ""), (.raw, String(raw))])
            case .implausible:
                return LogEntry(
                    event: .pedometerGarbage, priority: .info,
                    message:
                        "Step counter of \(source?.label ?? "?") jumped to \(raw); taken as the new baseline, nothing counted",
                    fields: [(.source, source?.label ?? ""), (.raw, String(raw))])
            case .baseline:
                save(force: true)  // the reading to count from after a restart
                return nil
            case .steps:
                return nil
            }
        case .steps(let count, let walkingS, let time):
            let before = pedometer.memory
            pedometer.detected(count, walkingS: walkingS, at: time)
            now = time
            account(before)
        case .tick(let time):
            now = time
            save(force: false)  // steps of a walk that stopped wait no longer than the interval
        }
        return nil
    }

    private mutating func account(_ before: Pedometer.Memory) {
        let m = pedometer.memory
        unsaved.steps += m.total - before.total
        unsaved.distanceM += m.distanceM - before.distanceM
        unsaved.walkingS += m.walkingS - before.walkingS
        save(force: false)
    }

    /// Commits counted steps at most every `commitInterval` seconds, or now when `force`d.
    mutating func save(force: Bool) {
        guard let log else { return }
        let t = MonotonicClock.now()
        guard force || (unsaved.steps > 0 && t - lastCommit >= Self.commitInterval) else { return }
        lastCommit = t
        // A failed commit keeps the increment inside the log, to go with the next one.
        log.commit(
            pedometer.memory, steps: unsaved.steps, distanceM: unsaved.distanceM, walkingS: unsaved.walkingS,
            at: Double(time(nil)))
        unsaved = (0, 0, 0)
    }

    /// The trip's GPS odometer at an accepted fix (the stride is learned from it).
    mutating func observe(traveledM: Double, at time: Double) {
        pedometer.observeOdometer(traveledM: traveledM, at: time)
    }

    /// A new trip: its steps count from zero, or from its departure at `time` (fix time).
    mutating func startTrip(since time: Double? = nil) {
        pedometer.startTrip(since: time)
        save(force: true)
    }

    /// `status`'s `steps` object (nil, written null, without a source).
    func status() -> PedometerStatus? {
        guard let source else { return nil }
        let m = pedometer.memory
        var o = PedometerStatus()
        o.source = source.label
        o.kind = source.kind
        o.total = m.total
        o.trip = m.tripSteps
        o.cadenceSpm = (now.map { pedometer.cadence(at: $0) } ?? 0).rounded(decimals: 1)
        o.distanceM = m.distanceM.rounded(decimals: 1)
        o.tripDistanceM = m.tripDistanceM.rounded(decimals: 1)
        o.strideM = pedometer.strideM.rounded(decimals: 3)
        o.strideLearned = pedometer.strideLearned
        return o
    }

    /// The `steps` answer: stored steps since a time (all of them without one), and the figures now.
    mutating func query(since: Double?) -> StepsReply {
        save(force: true)
        let s =
            log?.sum(since: since, until: nil) ?? (
                steps: pedometer.memory.total, distanceM: pedometer.memory.distanceM,
                walkingS: pedometer.memory.walkingS
            )
        return StepsReply(
            since: since.map(Timestamp.iso8601), steps: s.steps, distanceM: s.distanceM.rounded(decimals: 1),
            cadenceSpm: s.walkingS > 0 ? (Double(s.steps) / s.walkingS * 60).rounded(decimals: 1) : nil,
            pedometer: status())
    }

    /// The journal entry for a trip's end.
    func tripEntry() -> LogEntry {
        let m = pedometer.memory
        let cadence = pedometer.tripCadence
        return LogEntry(
            event: .steps, priority: .info,
            message: "Trip: \(m.tripSteps) steps, \(EventLog.whole(m.tripDistanceM)) m walked"
                + (cadence.map { " at \(EventLog.whole($0)) steps/min" } ?? ""),
            fields: [
                (.steps, String(m.tripSteps)), (.walkDistanceM, ReplyEncoder.number(m.tripDistanceM, decimals: 1)),
                (.cadenceSpm, cadence.map { ReplyEncoder.number($0, decimals: 1) } ?? ""),
                (.stepsTotal, String(m.total)), (.strideM, ReplyEncoder.number(pedometer.strideM, decimals: 3)),
                (.source, source?.label ?? ""),
            ])
    }

    /// OwnTracks `steps` for the trip (from its start to its end).
    func tripMessage(from: Double?, to: Double?) -> String {
        let m = pedometer.memory
        return Self.owntracks(
            steps: m.tripSteps, distanceM: m.tripDistanceM, from: from ?? to ?? Double(time(nil)),
            to: to ?? Double(time(nil)))
    }

    /// OwnTracks `steps` answering `reportSteps` for `from`...`to` (wall-clock seconds).
    mutating func reportMessage(from: Double, to: Double) -> String {
        save(force: true)
        let s =
            log?.sum(since: from, until: to) ?? (
                steps: pedometer.memory.total, distanceM: pedometer.memory.distanceM, walkingS: 0.0
            )
        return Self.owntracks(steps: s.steps, distanceM: s.distanceM, from: from, to: to)
    }

    static func owntracks(steps: Int, distanceM: Double, from: Double, to: Double) -> String {
        ReplyEncoder.encode(
            OwnTracksSteps(
                tst: Int(time(nil)), steps: steps, distance: OwnTracks.whole(distanceM) ?? 0, floorsup: 0,
                floorsdown: 0, from: Int(checking: from, rounding: .towardZero) ?? 0,
                to: Int(checking: to, rounding: .towardZero) ?? 0))
    }
}

/// OwnTracks' `steps` message (its JSON format's `_type` steps): whole steps, metres and seconds.
struct OwnTracksSteps: Encodable {
    var type = "steps"
    var tst: Int
    var steps: Int
    var distance: Int
    var floorsup: Int
    var floorsdown: Int
    var from: Int
    var to: Int

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case tst, steps, distance, floorsup, floorsdown, from, to
    }
}
