import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// `export_page` with `anchor`: the anchor watch's dense track (`TrackingSession.anchorTrack`,
/// in memory) a page at a time, with the anchor as the context's one event (kind `anchor`, its
/// radius), so that each format's writer gives the swing picture as it gives a trip.
enum AnchorExport {
    typealias Reply = TrackerService.Reply

    /// One page. A point's id is its place in the track since the drop (`dropped` + index + 1),
    /// so that a cursor holds while the oldest points go; points dropped between two pages are
    /// gone (the next page starts a new segment).
    static func page(_ session: TrackingSession, after: Int?, limit: Int?) -> Result<Reply, ControlError> {
        guard let state = session.anchor.state else {
            if after != nil { return .failure(ControlError("the anchor was raised during the export")) }
            return .success(ExportPageReply(empty: "the anchor is up", context: nil, points: [], after: nil))
        }
        let track = session.anchorTrack
        guard !track.points.isEmpty else {
            return .success(
                ExportPageReply(
                    empty: "no anchor track yet (no fix accepted since the drop)", context: nil, points: [], after: nil)
            )
        }
        let limit = min(limit ?? ExportPage.limit, ExportPage.limit)
        let start = max(0, (after ?? 0) - track.dropped)
        let end = min(track.points.count, start + limit)
        var points: [ExportPoint] = []
        for i in start..<max(start, end) {
            points.append(point(track.points[i], id: track.dropped + i + 1, after: i > 0 ? track.points[i - 1] : nil))
        }
        let context = after == nil ? Self.context(state, track) : nil
        return .success(
            ExportPageReply(
                context: context, points: points, after: end < track.points.count ? track.dropped + end : nil))
    }

    /// The anchor as an event, and the track's bounds.
    static func context(_ state: AnchorWatch.State, _ track: AnchorTrack) -> ExportContext {
        let p = track.points
        let bounds = ExportBounds(
            points: p.count, first: p[0].time, last: p[p.count - 1].time,
            minLat: p.map(\.at.latitude).min()!, maxLat: p.map(\.at.latitude).max()!,
            minLon: p.map(\.at.longitude).min()!, maxLon: p.map(\.at.longitude).max()!, minAlt: nil, maxAlt: nil)
        var anchor = ExportEvent(
            kind: "anchor", fence: nil, name: nil, time: Timestamp.iso8601(state.droppedAt),
            lat: state.anchor.latitude, lon: state.anchor.longitude)
        anchor.radiusM = state.radiusM
        return ExportContext(trips: [], stops: [], events: [anchor], fences: [], bounds: bounds)
    }

    /// A point with the speed and course from the one before it (none after a gap).
    static func point(_ p: AnchorTrack.Point, id: Int, after previous: AnchorTrack.Point?) -> ExportPoint {
        var out = ExportPoint(
            id: id, time: p.time, lat: p.at.latitude, lon: p.at.longitude, alt: nil, eph: p.errorM, mode: p.mode,
            speedMps: nil, courseDeg: nil, segment: true)
        guard let q = previous, p.time - q.time <= ExportPage.gapS else { return out }
        out.segment = false
        let hop = Geodesic.inverse(q.at, p.at)
        let dt = p.time - q.time
        if dt > 0 { out.speedMps = (hop.distance / dt).rounded(decimals: 3) }
        if hop.distance > 0 {
            let c = hop.azimuth1 < 0 ? hop.azimuth1 + 360 : hop.azimuth1
            out.courseDeg = (c >= 360 ? 0 : c).rounded(decimals: 1)
        }
        return out
    }
}
