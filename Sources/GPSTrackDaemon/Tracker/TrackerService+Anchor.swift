import GPSTrackCore
import GPSTrackProtocol

/// The anchor watch's mutating commands (`gpstrackctl anchor drop|raise|ack`), its clock while
/// no fix comes and its restart (`anchor`, the status, is `Reports.anchor` from the snapshot). Times are the fixes' times:
/// a command takes the time of the last accepted fix plus the time since it arrived.
extension TrackerService {
    /// The time now on the fixes' scale: the last accepted fix's time plus the monotonic time
    /// since it arrived; before any fix since the start, the stored watch's last fix (or its
    /// drop) plus the time since the start (the time the daemon was down is not known).
    func anchorNow() -> Double? {
        let now = clock()
        if let t = session.tracker.lastAccepted?.time, let received = lastFixReceived { return t + (now - received) }
        guard let s = session.anchor.state else { return nil }
        return (s.lastFixTime ?? s.droppedAt) + (now - startedAt)
    }

    func handleAnchor(_ command: AnchorCommand) -> Result<Reply, ControlError> {
        switch command {
        case .status:
            break
        case .drop(let d):
            guard session.hasFix, let boat = session.averagedPosition, let time = anchorNow() else {
                return .failure(ControlError("anchor drop needs a position: there is no fix"))
            }
            var radius = d.radiusM
            if radius == nil, let rode = d.rodeM, let depth = d.depthM {
                guard let r = session.anchor.config.radius(rodeM: rode, depthM: depth) else {
                    return .failure(
                        ControlError("a rode of \(rode) m does not reach the bottom in \(depth) m of water"))
                }
                radius = r
            }
            guard let radius else { return .failure(ControlError("anchor drop needs --radius or --rode and --depth")) }
            var at = boat
            if let bearing = d.bearing, let distance = d.distanceM, distance > 0 {
                at = Geodesic.destination(from: boat, azimuth: bearing, distance: distance)
            }
            deliver(session.dropAnchor(at: at, radiusM: radius, time: time), force: true)
        case .raise:
            guard session.anchor.state != nil, let time = anchorNow() else {
                return .failure(ControlError("the anchor is not down"))
            }
            deliver(session.raiseAnchor(time: time), force: true)
        case .ack:
            guard session.anchor.state != nil, let time = anchorNow() else {
                return .failure(ControlError("the anchor is not down"))
            }
            // Nothing latched: nothing to say, and no error (an ack twice is harmless).
            deliver(session.acknowledgeAnchor(time: time), force: true)
        }
        return .success(AnchorReply(anchor: Reports.anchor(session)))
    }

    /// The anchor watch's clock while no fix comes: once a second, the time on the fixes'
    /// scale goes to the watch (the no-position alarm, the repeats). Runs until cancelled.
    public func runAnchorClock() async {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 1_000_000_000)
            tickAnchorClock()
        }
    }

    /// One tick of that clock: what `runAnchorClock` does each second (a test calls it after
    /// moving its clock).
    public func tickAnchorClock() {
        guard session.anchor.state != nil || session.tracker.parkedGuard.needsClock || session.inputs.needsClock,
            let now = anchorNow() ?? fixClock
        else {
            return
        }
        let events = session.tickAnchor(now: now) + session.tickGuard(now: now) + session.tickInputs(now: now)
        if !events.isEmpty { deliver(events, force: true) }
    }

    /// Carries on with the anchor watch the state database keeps (anchored, latched alarms):
    /// called once at start, before the first fix.
    public func restoreAnchor() {
        guard let text = store?.loadAnchor() else { return }
        guard let state = AnchorWatch.State(encoded: text) else {
            log(
                LogEntry(
                    event: .storageCorrupt, priority: .err,
                    message: "The stored anchor watch does not read; the anchor is taken as up",
                    fields: [(.raw, String(text.prefix(200)))]))
            return
        }
        session.restore(anchor: state)
        log(
            LogEntry(
                event: .restored, priority: .notice,
                message: "Anchor watch carried on: \(EventLog.metres(state.radiusM)) around "
                    + "\(EventLog.coordinate(state.anchor)), alarm \(state.alarmState)",
                fields: [
                    (.anchorLat, "\(state.anchor.latitude)"), (.anchorLon, "\(state.anchor.longitude)"),
                    (.radiusM, EventLog.number(state.radiusM)), (.state, state.alarmState),
                ]))
    }
}
