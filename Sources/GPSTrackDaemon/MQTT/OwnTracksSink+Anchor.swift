import GPSTrackCore
import GPSTrackProtocol

/// The anchor watch on the broker: an OwnTracks `transition` for the region `anchor`, so that
/// Home Assistant automations see the boat enter it at the drop and leave it when it drags.
extension OwnTracksSink {
    func publishAnchor(_ a: AnchorEvent, session: TrackingSession) {
        let enter: Bool
        let at: Coordinate?
        switch a {
        case .dropped(_, let anchor, _):
            enter = true
            at = anchor
        // The raise (and a raise again after an acknowledgement), not its repeats: the region
        // is left once a drag.
        case .alarm(_, let boat, _, 0):
            enter = false
            at = boat
        default: return
        }
        let payload = OwnTracks.transition(
            tid: mqtt.trackerID, enter: enter, desc: "anchor", rid: "anchor",
            wtst: Int(clamping: session.anchor.state?.droppedAt ?? a.time, rounding: .towardZero), time: a.time, at: at,
            acc: OwnTracks.accuracy(
                session.tracker.lastAccepted?.horizontalError, assumed: session.tracker.config.assumedErrorM))
        mqtt.enqueue(kind: "transition", topic: mqtt.baseTopic + "/event", payload: payload, qos: 1)
    }
}
