import GPSTrackJSON
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
        emit(Self.collection.head + "\n")
    }

    /// The collection's frame: its features are written one by one between the two.
    static let collection = ReplyEncoder.frame(around: GeoJSONCollection())

    static func position(_ lat: Double, _ lon: Double) -> String { ReplyEncoder.encode(GeoJSONPosition(lat, lon)) }

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

    /// A trip's feature up to its coordinates, and from them (the positions come between).
    private func frame(_ i: Int) -> (head: String, tail: String) {
        let t = TrackSpans.trips(context!)[i]
        return ReplyEncoder.frame(
            around: GeoJSONFeature(id: .number(t.id), properties: GeoJSONProperties.Trip(t), geometry: .lineString([])))
    }

    private func header(_ i: Int) -> String { frame(i).head }

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
        emit(frame(i).tail)
        open = nil
        positions = 0
    }

    /// A trip without a stored point in range: from its start to its end place.
    private mutating func feature(_ i: Int) {
        let t = TrackSpans.trips(context!)[i]
        let end = t.to ?? t.from
        let line = GeoJSONFeature(
            id: .number(t.id), properties: GeoJSONProperties.Trip(t),
            geometry: .lineString([GeoJSONPosition(t.from.lat, t.from.lon), GeoJSONPosition(end.lat, end.lon)]))
        emit((features > 0 ? ",\n" : "") + ReplyEncoder.encode(line))
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
        func point<P: Encodable>(_ lat: Double, _ lon: Double, _ properties: P) {
            let line = GeoJSONFeature(properties: properties, geometry: .point(GeoJSONPosition(lat, lon)))
            emit((features > 0 ? ",\n" : "") + ReplyEncoder.encode(line))
            features += 1
        }
        for (n, s) in context.stops.enumerated() {
            point(s.at.lat, s.at.lon, GeoJSONProperties.Stop(s, number: n + 1))
        }
        for e in context.events {
            point(e.lat, e.lon, GeoJSONProperties.Event(e))
        }
        for f in fences ? context.fences : [] {
            emit((features > 0 ? ",\n" : "") + GeoJSONFences.feature(f))
            features += 1
        }
        emit("\n" + Self.collection.tail + "\n")
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
