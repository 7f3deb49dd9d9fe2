import GPSTrackJSON

/// `export_page`: the history an export covers, a page at a time, so that neither the daemon
/// nor gpstrackctl ever holds more than one page of track points (`ExportPage.limit`): the
/// first page (no `after`) also carries the context the writers need before the first point
/// (trips, stops, events, fences, the points' bounds); the next pages carry points only.
public enum ExportPage {
    /// Track points a page holds at most: about 250 KB of JSON, a few ms of SQLite.
    public static let limit = 2000
    /// A gap between stored points longer than this starts a new track segment (GPX `trkseg`),
    /// as does another odometer run: the track was not recorded across it.
    public static let gapS = 120.0
}

/// What an export covers: one trip, or a time range (both ends optional), or (`anchor`) the
/// anchor watch's track in the daemon's memory, alone.
public struct ExportScope: Sendable, Equatable {
    public var trip: Int64?
    public var since: Double?
    public var until: Double?
    public var anchor = false
    public init(trip: Int64?, since: Double?, until: Double?, anchor: Bool = false) {
        self.trip = trip
        self.since = since
        self.until = until
        self.anchor = anchor
    }
}

/// One stored track point, with the speed and course from the point before it (the store
/// keeps positions, not the receiver's velocity): null at a segment's first point.
public struct ExportPoint: Codable, Sendable, Equatable {
    /// The row's id: the cursor of the next page.
    public var id: Int
    public var time: Double
    public var lat: Double
    public var lon: Double
    public var alt: Double?
    /// Estimated horizontal error, metres (gpsd's eph).
    public var eph: Double?
    /// gpsd's fix mode: 2 for 2D, 3 for 3D.
    public var mode: Int
    public var speedMps: Double?
    /// Degrees clockwise from true north, [0, 360).
    public var courseDeg: Double?
    /// The first point of a track segment (see `ExportPage.gapS`).
    public var segment: Bool
    /// The fix's horizontal dilution of precision and satellites used, when gpsd gave them.
    public var hdop: Double? = nil
    public var sat: Int? = nil

    public init(
        id: Int, time: Double, lat: Double, lon: Double, alt: Double?, eph: Double?, mode: Int,
        speedMps: Double?, courseDeg: Double?, segment: Bool
    ) {
        self.id = id
        self.time = time
        self.lat = lat
        self.lon = lon
        self.alt = alt
        self.eph = eph
        self.mode = mode
        self.speedMps = speedMps
        self.courseDeg = courseDeg
        self.segment = segment
    }

    enum CodingKeys: String, CodingKey {
        case id
        case time = "t"
        case lat, lon, alt, eph, mode
        case speedMps = "speed_mps"
        case courseDeg = "course_deg"
        case segment = "seg"
        case hdop, sat
    }
}

/// A stored event that has a place: enter, exit, dwell, trip_start, trip_end, overspeed, ...
public struct ExportEvent: Codable, Sendable, Equatable {
    public var kind: String
    public var fence: String?
    public var name: String?
    public var time: String
    public var lat: Double
    public var lon: Double
    /// The anchor's radius, metres (an `anchor` point of `export --anchor`), else absent.
    @Omitted public var radiusM: Double?
    public init(kind: String, fence: String?, name: String?, time: String, lat: Double, lon: Double) {
        self.kind = kind
        self.fence = fence
        self.name = name
        self.time = time
        self.lat = lat
        self.lon = lon
    }

    enum CodingKeys: String, CodingKey {
        case kind, fence, name, time, lat, lon
        case radiusM = "radius_m"
    }
}

/// A fence's geometry, for drawing: a circle (`lat`, `lon`, `radius_m`), polygons (`rings`,
/// each polygon's rings of [lon, lat]) or a corridor (`rings` as its lines, `width_m`).
public struct ExportFence: Codable, Sendable, Equatable {
    public var id: String
    public var name: String?
    public var kind: String
    @Omitted public var lat: Double?
    @Omitted public var lon: Double?
    @Omitted public var radiusM: Double?
    @Omitted public var widthM: Double?
    /// Polygons: [polygon][ring][position]; a corridor: one "polygon" whose rings are its lines.
    public var rings: [[[[Double]]]]

    public init(id: String, name: String?, kind: String, rings: [[[[Double]]]]) {
        self.id = id
        self.name = name
        self.kind = kind
        self.rings = rings
    }

    enum CodingKeys: String, CodingKey {
        case id, name, kind, lat, lon
        case radiusM = "radius_m"
        case widthM = "width_m"
        case rings
    }
}

/// The points' extent: what the map page's projection needs before the first point.
public struct ExportBounds: Codable, Sendable, Equatable {
    public var points: Int
    public var first: Double
    public var last: Double
    public var minLat: Double
    public var maxLat: Double
    public var minLon: Double
    public var maxLon: Double
    public var minAlt: Double?
    public var maxAlt: Double?
    public init(
        points: Int, first: Double, last: Double, minLat: Double, maxLat: Double, minLon: Double, maxLon: Double,
        minAlt: Double?, maxAlt: Double?
    ) {
        self.points = points
        self.first = first
        self.last = last
        self.minLat = minLat
        self.maxLat = maxLat
        self.minLon = minLon
        self.maxLon = maxLon
        self.minAlt = minAlt
        self.maxAlt = maxAlt
    }

    enum CodingKeys: String, CodingKey {
        case points, first, last
        case minLat = "min_lat"
        case maxLat = "max_lat"
        case minLon = "min_lon"
        case maxLon = "max_lon"
        case minAlt = "min_alt"
        case maxAlt = "max_alt"
    }
}

/// What the first page tells before the points: the trips, stops and events of the range, the
/// fences, and the points' bounds.
public struct ExportContext: Codable, Sendable, Equatable {
    public var trips: [AutoTrip]
    public var stops: [StopRow]
    public var events: [ExportEvent]
    public var fences: [ExportFence]
    public var bounds: ExportBounds
    /// The map page's tiles (`map_tiles_url`, a Leaflet URL template) and their attribution;
    /// absent with `map_tiles_url = none`. gpstrackctl reads them again as strictly
    /// (`MapTiles.parse`) before they go into a page.
    @Omitted public var tiles: String?
    @Omitted public var tilesAttribution: String?

    public init(trips: [AutoTrip], stops: [StopRow], events: [ExportEvent], fences: [ExportFence], bounds: ExportBounds)
    {
        self.trips = trips
        self.stops = stops
        self.events = events
        self.fences = fences
        self.bounds = bounds
    }

    enum CodingKeys: String, CodingKey {
        case trips, stops, events, fences, bounds, tiles
        case tilesAttribution = "tiles_attribution"
    }
}

/// One page: the context on the first page; `empty` says why there is nothing to export (an
/// unknown trip, no point in the range); `after` is the cursor of the next page, null on the last.
public struct ExportPageReply: Codable, Sendable, Equatable {
    public var ok = true
    @Omitted public var empty: String?
    @Omitted public var context: ExportContext?
    public var points: [ExportPoint]
    public var after: Int?

    public init(empty: String? = nil, context: ExportContext?, points: [ExportPoint], after: Int?) {
        self.empty = empty
        self.context = context
        self.points = points
        self.after = after
    }
}
