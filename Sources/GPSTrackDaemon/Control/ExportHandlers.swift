import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// `export_page`: the history of a trip or a time range, a page of points at a time, for
/// `gpstrackctl export --format` (its writers stream each page as it comes).
enum ExportHandlers {
    typealias Reply = TrackerService.Reply

    /// One page of `export_page` (the first, without `after`, is read with the store committed:
    /// see `ControlHandlers`).
    static func page(_ v: HistoryView, _ scope: ExportScope, after: Int?, limit: Int?) -> Result<Reply, ControlError> {
        let limit = min(limit ?? ExportPage.limit, ExportPage.limit)
        let store: Store
        switch v.availableStore() {
        case .success(let s): store = s
        case .failure(let e): return .failure(e)
        }
        let filter: Store.PointFilter
        switch exportFilter(v, scope, store: store) {
        case .success(let f): filter = f
        case .failure(let why):
            return .success(ExportPageReply(empty: why.message, context: nil, points: [], after: nil))
        }
        var context: ExportContext?
        if after == nil {
            guard let bounds = store.exportBounds(filter) else {
                let range = [
                    scope.since.map { "since \(Timestamp.iso8601($0))" },
                    scope.until.map { "until \(Timestamp.iso8601($0))" },
                ]
                .compactMap { $0 }.joined(separator: " ")
                let what =
                    scope.trip.map { "trip \($0) has no stored track points" }
                    ?? "no stored track points\(range.isEmpty ? "" : " " + range)"
                return .success(ExportPageReply(empty: what, context: nil, points: [], after: nil))
            }
            context = exportContext(v, store, filter: filter, bounds: bounds)
        }
        var rows = store.exportRows(filter, from: after.map(Int64.init), limit: limit + (after == nil ? 0 : 1))
        var previous: Store.ExportRow?
        if let after, rows.first?.id == Int64(after) { previous = rows.removeFirst() }
        let full = rows.count == limit
        let points = rows.map { row in
            defer { previous = row }
            return Self.exportPoint(row, after: previous)
        }
        return .success(
            ExportPageReply(context: context, points: points, after: full ? rows.last.map { Int($0.id) } : nil))
    }

    /// The points a scope covers: an automatic trip is a span of time (its points, whatever
    /// odometer run holds them); a manual trip is its odometer run.
    private static func exportFilter(_ v: HistoryView, _ scope: ExportScope, store: Store) -> Result<
        Store.PointFilter, ControlError
    > {
        guard let n = scope.trip else { return .success(.init(run: nil, since: scope.since, until: scope.until)) }
        if v.tripMode == .auto {
            guard let span = v.autoTripSpan(n, store: store) else { return .failure(ControlError("no trip \(n)")) }
            return .success(.init(run: nil, since: span.0, until: span.1))
        }
        guard store.trips().contains(where: { $0.id == n }) else { return .failure(ControlError("no trip \(n)")) }
        return .success(.init(run: n, since: nil, until: nil))
    }

    /// The trips, stops and events of the scope's time (a manual trip's: its points' span),
    /// and the fences.
    private static func exportContext(_ v: HistoryView, _ store: Store, filter: Store.PointFilter, bounds: ExportBounds)
        -> ExportContext
    {
        let first = filter.run == nil ? filter.since ?? -.infinity : bounds.first
        let last = filter.run == nil ? filter.until ?? .infinity : bounds.last
        var trips = store.autoTrips().filter { $0.end >= first && $0.start <= last }.map {
            Reports.autoTrip($0, state: "ended")
        }
        if let open = Reports.openTrip(v.session), let start = Timestamp.parse(open.startedAt), start <= last {
            trips.append(open)
        }
        let now = v.session.tracker.lastAccepted?.time
        let stops = store.stops().filter { $0.0.arrival <= last && ($0.0.departure ?? .infinity) >= first }.map {
            stop, names in
            StopRow(
                arrival: Timestamp.iso8601(stop.arrival), departure: stop.departure.map(Timestamp.iso8601),
                durationS: (stop.departure ?? now).map { ($0 - stop.arrival).rounded(decimals: 1) },
                at: Reports.place(stop.at, fences: names), afterTrip: stop.afterTrip)
        }
        let events = store.events(since: first.isFinite ? first : nil, fence: nil).compactMap { line -> ExportEvent? in
            guard let o = try? JSONValue.parse(Array(line.utf8)), let kind = o["event"]?.string,
                let time = o["time"]?.string, let t = Timestamp.parse(time), t <= last,
                let lat = o["lat"]?.number, let lon = o["lon"]?.number
            else { return nil }
            return ExportEvent(
                kind: kind, fence: o["fence"]?.string, name: o["name"]?.string, time: time, lat: lat, lon: lon)
        }
        let fences = (v.session.geofences?.index.fences ?? []).map(Self.exportFence)
        var context = ExportContext(trips: trips, stops: stops, events: events, fences: fences, bounds: bounds)
        context.tiles = v.mapTiles?.url
        context.tilesAttribution = v.mapTiles?.attribution
        return context
    }

    /// A point with the speed and course from the one before it in its segment.
    static func exportPoint(_ row: Store.ExportRow, after previous: Store.ExportRow?) -> ExportPoint {
        let p = row.point
        var point = ExportPoint(
            id: Int(row.id), time: p.time, lat: p.latitude, lon: p.longitude,
            alt: p.altitude.isFinite ? p.altitude : nil, eph: p.eph.isFinite ? p.eph : nil, mode: p.mode,
            speedMps: nil, courseDeg: nil, segment: true)
        (point.hdop, point.sat) = (p.hdop.isFinite ? p.hdop : nil, p.satellites)
        guard let q = previous?.point, previous?.run == row.run, p.time - q.time <= ExportPage.gapS else {
            return point
        }
        point.segment = false
        let dt = p.time - q.time
        let hop = Geodesic.inverse(
            Coordinate(latitude: q.latitude, longitude: q.longitude),
            Coordinate(latitude: p.latitude, longitude: p.longitude))
        if dt > 0 { point.speedMps = (hop.distance / dt).rounded(decimals: 3) }
        if hop.distance > 0 {
            let c = hop.azimuth1 < 0 ? hop.azimuth1 + 360 : hop.azimuth1
            point.courseDeg = (c >= 360 ? 0 : c).rounded(decimals: 1)
        }
        return point
    }

    static func exportFence(_ f: Fence) -> ExportFence {
        func ring(_ r: [Coordinate]) -> [[Double]] { r.map { [$0.longitude, $0.latitude] } }
        switch f.shape {
        case .circle(let c, let r):
            var e = ExportFence(id: f.id, name: f.name, kind: "circle", rings: [])
            e.lat = c.latitude
            e.lon = c.longitude
            e.radiusM = r
            return e
        case .polygons(let polygons):
            return ExportFence(id: f.id, name: f.name, kind: "polygon", rings: polygons.map { $0.map(ring) })
        case .corridor(let lines, let width):
            var e = ExportFence(id: f.id, name: f.name, kind: "corridor", rings: [lines.map(ring)])
            e.widthM = width
            return e
        }
    }
}
