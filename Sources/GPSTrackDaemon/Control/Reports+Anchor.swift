import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

extension Reports {
    /// The anchor's status, nil while it is up.
    static func anchor(_ session: TrackingSession) -> StatusReply.AnchorStatus? {
        guard let s = session.anchor.state else { return nil }
        var a = StatusReply.AnchorStatus()
        a.lat = s.anchor.latitude
        a.lon = s.anchor.longitude
        a.radiusM = s.radiusM.rounded(decimals: 1)
        a.since = Timestamp.iso8601(s.droppedAt)
        a.distanceM = s.lastDistanceM?.rounded(decimals: 1)
        a.bearing = s.lastBearing.map { ($0 < 0 ? $0 + 360 : $0).rounded(decimals: 1) }
        a.maxDistanceM = s.maxDistanceM.rounded(decimals: 1)
        a.maxAt = s.maxAt.map(Timestamp.iso8601)
        a.alarm = s.alarmState
        func latched(_ x: AnchorWatch.Alarm?) -> StatusReply.LatchedAlarm? {
            x.map { .init(raised: Timestamp.iso8601($0.raisedAt), repeats: $0.repeats, acknowledged: $0.acknowledged) }
        }
        a.drag = latched(s.drag)
        a.noPosition = latched(s.noPosition)
        a.trackPoints = session.anchorTrack.points.count
        return a
    }
}
