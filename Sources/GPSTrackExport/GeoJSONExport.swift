import GPSTrackProtocol

/// GeoJSON (RFC 7946): each trip a LineString feature with its figures, written as its points
/// come; then each stop and each event a Point feature. Without trips in the range, the track
/// is one LineString feature (`kind` track). With `fences`, the fences last (`GeoJSONFences`).
public struct GeoJSONExport: ExportWriter {
    let emit: (String) -> Void
    let fences: Bool
    private var context: ExportContext?
    private var spans = TripCursor([], last: 0)
    /// The trip whose feature is open, its positions so far, and the trips already written.
    private var open: Int?
    private var positions = 0
    private var written = 0
    private var features = 0

    public init(fences: Bool = false, emit: @escaping (String) -> Void) {
        self.fences = fences
        self.emit = emit
    }

    public mutating func begin(_ context: ExportContext) {
        self.context = context
        spans = TripCursor(TrackSpans.trips(context), last: context.bounds.last)
        emit(#"{"type":"FeatureCollection","features":["# + "\n")
    }

    static func position(_ lat: Double, _ lon: Double) -> String { "[\(Text.decimal(lon, 7)),\(Text.decimal(lat, 7))]" }

    public mutating func point(_ p: ExportPoint) {
        guard let i = spans.trip(at: p.time) else { return }
        if open != i {
            close()
            while written < i {
                feature(written)
                written += 1
            }
            emit((features > 0 ? ",\n" : "") + header(i))
            features += 1
            open = i
            written = i + 1
        }
        emit((positions > 0 ? "," : "") + Self.position(p.lat, p.lon))
        positions += 1
    }

    /// A trip's feature up to its coordinates.
    private func header(_ i: Int) -> String {
        let trips = TrackSpans.trips(context!)
        let t = trips[i]
        var o = JSONObject()
        o.add("kind", t.state == "track" ? "track" : "trip")
        o.add("id", t.id)
        o.add("state", t.state)
        o.add("start", t.startedAt)
        if let end = t.endedAt { o.add("end", end) }
        o.add("from", t.from.fences.joined(separator: ", "))
        if let to = t.to { o.add("to", to.fences.joined(separator: ", ")) }
        o.add("distance_m", t.traveledM)
        if let v = t.straightLineM { o.add("straight_line_m", v) }
        if let v = t.durationS { o.add("duration_s", v) }
        if let v = t.movingS { o.add("moving_s", v) }
        if let v = t.maxSpeedMps { o.add("max_speed_mps", v) }
        if let v = t.avgSpeedMps { o.add("avg_speed_mps", v) }
        return
            #"{"type":"Feature","id":\#(t.id),"properties":\#(o.encoded),"geometry":{"type":"LineString","coordinates":["#
    }

    /// Ends the open trip's feature; a LineString has two positions at least, so a trip with
    /// one stored point in range ends at its `to` place (else repeats the point).
    private mutating func close() {
        guard let i = open else { return }
        if positions < 2 {
            let t = TrackSpans.trips(context!)[i]
            let end = t.to ?? t.from
            emit((positions > 0 ? "," : "") + Self.position(end.lat, end.lon))
            if positions == 0 { emit("," + Self.position(end.lat, end.lon)) }
        }
        emit("]}}")
        open = nil
        positions = 0
    }

    /// A trip without a stored point in range: from its start to its end place.
    private mutating func feature(_ i: Int) {
        let t = TrackSpans.trips(context!)[i]
        let end = t.to ?? t.from
        emit(
            (features > 0 ? ",\n" : "") + header(i) + Self.position(t.from.lat, t.from.lon) + ","
                + Self.position(end.lat, end.lon) + "]}}")
        features += 1
    }

    public mutating func finish() {
        guard let context else { return }
        close()
        let trips = TrackSpans.trips(context)
        while written < trips.count {
            feature(written)
            written += 1
        }
        func point(_ lat: Double, _ lon: Double, _ o: JSONObject) {
            emit(
                (features > 0 ? ",\n" : "") + #"{"type":"Feature","properties":\#(o.encoded),"#
                    + #""geometry":{"type":"Point","coordinates":\#(Self.position(lat, lon))}}"#)
            features += 1
        }
        for (n, s) in context.stops.enumerated() {
            var o = JSONObject()
            o.add("kind", "stop")
            o.add("id", n + 1)
            o.add("arrival", s.arrival)
            o.add("departure", s.departure)
            o.add("duration_s", s.durationS)
            o.add("fences", s.at.fences.joined(separator: ", "))
            if let t = s.afterTrip { o.add("after_trip", t) }
            point(s.at.lat, s.at.lon, o)
        }
        for e in context.events {
            var o = JSONObject()
            o.add("kind", e.kind)
            o.add("fence", e.fence)
            o.add("name", e.name)
            o.add("time", e.time)
            if let r = e.radiusM { o.add("radius_m", r) }
            point(e.lat, e.lon, o)
        }
        for f in fences ? context.fences : [] {
            emit((features > 0 ? ",\n" : "") + GeoJSONFences.feature(f))
            features += 1
        }
        emit("\n]}\n")
    }
}

/// The spans a track is drawn in: the range's trips, or without any the whole range as one
/// pseudo-trip (state `track`), so that a range without trips still shows its points.
enum TrackSpans {
    static func trips(_ context: ExportContext) -> [AutoTrip] {
        guard context.trips.isEmpty else { return context.trips }
        var t = AutoTrip(
            id: 0, state: "track", startedAt: Timestamp.iso8601(context.bounds.first),
            from: Place(lat: context.bounds.minLat, lon: context.bounds.minLon, fences: []), traveledM: 0)
        t.endedAt = Timestamp.iso8601(context.bounds.last)
        return [t]
    }
}
