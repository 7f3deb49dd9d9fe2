import GPSTrackProtocol

/// CSV (RFC 4180: CRLF line ends, a header, fields quoted when they must be): one row per
/// point with the automatic trip it falls in (empty between trips), its segment number, and
/// the fix's HDOP and satellites used (empty when unknown; last, so that older readers' column
/// numbers hold).
public struct CSVExport: ExportWriter {
    public static let header = [
        "time", "lat", "lon", "alt_m", "eph_m", "mode", "speed_mps", "course_deg", "trip", "segment", "hdop", "sat",
    ]
    let emit: (String) -> Void
    private var trips = TripCursor([], last: 0)
    private var ids: [Int] = []
    private var segment = 0

    public init(emit: @escaping (String) -> Void) { self.emit = emit }

    public mutating func begin(_ context: ExportContext) {
        trips = TripCursor(context.trips, last: context.bounds.last)
        ids = context.trips.map(\.id)
        emit(Self.header.joined(separator: ",") + "\r\n")
    }

    public mutating func point(_ p: ExportPoint) {
        if p.segment || segment == 0 { segment += 1 }
        let trip = trips.trip(at: p.time).map { String(ids[$0]) } ?? ""
        let fields = [
            Timestamp.iso8601(p.time), Text.decimal(p.lat, 7), Text.decimal(p.lon, 7),
            p.alt.map { Text.decimal($0, 2) } ?? "", p.eph.map { Text.decimal($0, 2) } ?? "", String(p.mode),
            p.speedMps.map { Text.decimal($0, 3) } ?? "", p.courseDeg.map { Text.decimal($0, 1) } ?? "",
            trip, String(segment),
        ]
        let hdop: String = p.hdop.map { Text.decimal($0, 2) } ?? ""
        let sat: String = p.sat.map { String($0) } ?? ""
        emit((fields + [hdop, sat]).map(Self.field).joined(separator: ",") + "\r\n")
    }

    public mutating func finish() {}

    /// A field, quoted (its quotes doubled) when it holds a comma, a quote or a line break.
    static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        var out = "\""
        for c in s { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }
}
