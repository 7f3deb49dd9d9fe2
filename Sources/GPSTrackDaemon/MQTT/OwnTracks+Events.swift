import GPSTrackCore

/// What a tracking event is on OwnTracks, for the MQTT and the HTTP reporters alike: one
/// exhaustive switch, so an event kind added to the vocabulary does not compile until it is
/// decided here.
extension OwnTracks {
    /// A region transition to send, and whether it is an alarm (the parked or anchor region
    /// left: kept before locations when the outbox thins).
    struct EventMessage {
        var payload: String
        var time: Double
        var isAlarm: Bool
    }

    /// What an event makes OwnTracks send besides the throttled locations.
    enum Part {
        /// A region transition.
        case transition(EventMessage)
        /// The step's own fix as a `location` at once, whatever the throttle says: a latched
        /// guard breach said again, so that the map follows the towed vehicle.
        case locationNow
    }

    /// The part for `event`, nil when OwnTracks has none: a fence entered or left (a crossing
    /// too), the `parked` region left at a guard breach (once) and the fix at each of its
    /// repeats, the `anchor` region entered at the drop and left at a drag's raise (not its
    /// repeats). `fencesLoadedAt` is the fences' `wtst`; `acc` the last accepted fix's; `step`
    /// the one the event came in (the guard's and the anchor's state after it).
    static func part(
        for event: TrackingSession.Event, tid: String, fencesLoadedAt: Int, acc: Int, after step: TrackerStep
    ) -> Part? {
        switch event {
        case .fence(let e):
            switch e.kind {
            case .enter, .exit:
                let payload = transition(
                    tid: tid, enter: e.kind == .enter, desc: e.fenceName ?? e.fenceID, rid: e.fenceID,
                    wtst: fencesLoadedAt, time: e.time, at: e.coordinate, acc: acc)
                return .transition(EventMessage(payload: payload, time: e.time, isAlarm: false))
            case .dwell, .state: return nil
            }
        case .fencesDetermined:
            return nil
        case .tracker(let t):
            switch t {
            case .guardBreach(let time, let at, _, _, _):
                let payload = transition(
                    tid: tid, enter: false, desc: "parked", rid: "parked",
                    wtst: Int(clamping: step.tracker.parkedGuard.armedSince ?? time, rounding: .towardZero),
                    time: time, at: at, acc: acc)
                return .transition(EventMessage(payload: payload, time: time, isAlarm: true))
            case .guardRepeat:
                return .locationNow
            case .anchor(let a):
                return anchor(a, tid: tid, acc: acc, droppedAt: step.anchor?.droppedAt).map { .transition($0) }
            // OwnTracks has no alarm of its own: the battery and the supply ride on every
            // location as `batt` and `bs`.
            case .input(.sos), .input(.powerLost), .tripStart, .tripEnd, .guardArmed, .guardArmRefused, .guardAck,
                .guardNoPosition, .overspeedStart,
                .overspeedEnd, .tripStop, .discontinuity, .fixAcquired, .fixLost, .input(.ignitionOn),
                .input(.ignitionOff),
                .input(.powerRestored), .input(.batteryLow), .input(.sosAck):
                return nil
            }
        }
    }

    private static func anchor(_ a: AnchorEvent, tid: String, acc: Int, droppedAt: Double?) -> EventMessage? {
        let enter: Bool
        let at: Coordinate?
        switch a {
        case .dropped(_, let anchor, _):
            enter = true
            at = anchor
        case .alarm(_, let boat, _, let repeatCount):
            guard repeatCount == 0 else { return nil }
            enter = false
            at = boat
        case .warning, .noPosition, .acknowledged, .raised:
            return nil
        }
        let payload = transition(
            tid: tid, enter: enter, desc: "anchor", rid: "anchor",
            wtst: Int(clamping: droppedAt ?? a.time, rounding: .towardZero), time: a.time, at: at,
            acc: acc)
        return EventMessage(payload: payload, time: a.time, isAlarm: !enter)
    }
}
