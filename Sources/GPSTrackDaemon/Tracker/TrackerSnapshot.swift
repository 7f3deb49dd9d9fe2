import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// What the tracking actor publishes of itself for the control handlers (in the manner of
/// chrony's `reports.h`): plain values in their wire types, taken on the actor's thread in one
/// go, so that a handler builds its reply from a consistent picture without reaching into the
/// actor. Never the session itself, nor the GEOS-backed fence index.
public struct TrackerSnapshot: Sendable {
    /// gpsd's connection as the tracker saw it (without the source's own drop counts).
    public var gpsd = StatusReply.GPSDStatus()
    public var receivers: [StatusReply.ReceiverStatus] = []
    /// The last accepted fix while a fix is held.
    public var fix: StatusReply.FixStatus?
    public var trip = ManualTrip()
    /// The automatic trips' parts (`trip_mode = auto` only).
    public var motion: StatusReply.MotionStatus?
    public var currentTrip: AutoTrip??
    public var guardStatus: GuardStatus?
    public var tripsTotal: Int?
    /// Every fence's state (`detailed`: with its kind and last event, for `fences`).
    public var fences: [FenceReport] = []
    /// The anchor watch, nil while the anchor is up.
    public var anchor: StatusReply.AnchorStatus?
    /// The box's inputs, nil with none configured.
    public var inputs: StatusReply.InputsStatus?
    public var counters = StatusReply.Counters()
    public var storage = StatusReply.StorageStatus()
    public var steps: PedometerStatus?
    public var seq = 0
    public var uptimeS = 0.0
    public var eventsTotal = NamedCounts()
    public var sky: StatusReply.SkyStatus?
    public var clockOffsetS: Double?
    public var today: StatusReply.DayStatus?
    /// The lifetime odometer, metres.
    public var odometerM = 0.0
    /// Home Assistant's discovery, when on.
    public var ha: HAStatus?
    /// The HTTP uplinks' queues, by uplink name (`traccar`, `owntracks_http`, `webhook`).
    public var uplinks: [UplinkName: StatusReply.UplinkStatus] = [:]
}

extension TrackerService {
    /// The tracker's snapshot now; `detailedFences` adds each fence's kind and last event.
    public func snapshot(detailedFences: Bool = false) -> TrackerSnapshot {
        var s = TrackerSnapshot()
        s.gpsd.connected = gpsdConnected
        s.gpsd.device = device
        s.gpsd.address = "\(configuration.gpsdHost):\(configuration.gpsdPort)"
        s.gpsd.reconnects = gpsdReconnects
        s.receivers = receiverStatuses()
        if let fix = session.tracker.lastAccepted, session.hasFix {
            s.fix = Reports.fix(
                fix, minimumSpeed: configuration.tracker.minCourseSpeedMps,
                ageS: lastFixReceived.map { clock() - $0 })
        }
        s.trip = Reports.manualTrip(session.tracker.trip)
        if configuration.tracker.tripMode == .auto {
            let trips = session.tracker.trips
            var m = StatusReply.MotionStatus(
                state: trips.motion.0.rawValue, since: trips.motion.1.map(Timestamp.iso8601))
            m.shortMoves = trips.shortMoves
            m.movedM = trips.movedM.rounded(decimals: 2)
            s.motion = m
            s.currentTrip = .some(Reports.openTrip(session))
            s.guardStatus = Reports.guardStatus(
                session.tracker.parkedGuard, radiusM: configuration.tracker.guardRadiusM)
            s.tripsTotal = trips.tripsEnded
        }
        s.fences = Reports.fences(session.geofences, detailed: detailedFences)
        s.anchor = Reports.anchor(session)
        if configuration.inputs.any {
            s.inputs = Reports.inputs(session.inputs, configured: configuration.inputs, now: fixClock)
        }
        s.counters = Reports.counters(session.tracker.counters)
        s.storage = Reports.storage(store)
        s.steps = stepsSink?.figures.status()
        s.seq = Int(session.seq)
        s.uptimeS = (clock() - startedAt).rounded(decimals: 1)
        s.eventsTotal = NamedCounts(journalSink.counts)
        if let sky, selector.followed == nil || selector.followed == "" || sky.device == selector.followed {
            s.sky = Reports.sky(sky)
        }
        s.clockOffsetS = clockOffsetS?.rounded(decimals: 3)
        s.odometerM = session.tracker.counters.odometerM.rounded(decimals: 2)
        s.today = sinks.lazy.compactMap { $0 as? DayDistance }.first?.status(trip: session.tracker.trip)
        for case let uplink as any UplinkSink in sinks { s.uplinks[uplink.uplink] = Reports.uplink(uplink) }
        s.ha = sinks.lazy.compactMap { $0 as? HASink }.first?.discovery.status
        return s
    }

    /// The `status` reply, for the tracker's own outlets (the broker's `status` action, the
    /// metrics file): its snapshot with the gpsd source's and the MQTT publisher's stats.
    public func statusReply() -> StatusReply {
        StatusReport.reply(snapshot(), gpsd: gpsdSource?.stats, mqtt: mqtt)
    }
}
