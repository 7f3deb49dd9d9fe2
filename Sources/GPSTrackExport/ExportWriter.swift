import GPSTrackJSON
import GPSTrackProtocol

/// A format of `gpstrackctl export --format`: told the context first, then every point in time
/// order as the pages come, then the end. Each writes as it goes (through `emit`) and keeps
/// only what one trip or one segment needs, never the points: a month exports in constant memory.
public protocol ExportWriter {
    mutating func begin(_ context: ExportContext)
    mutating func point(_ p: ExportPoint)
    mutating func finish()
}

/// The formats, by the names `--format` takes.
public enum ExportFormat: String, CaseIterable, Sendable {
    case gpx, geojson, kml, csv, html, svg

    /// The writer of this format, writing through `emit`; `title` heads what has a title;
    /// `fences` adds the fences as features (GeoJSON's option: the others draw them or not);
    /// `tiles` and `leaflet` are the html page's streets (`MapPage`).
    public func writer(
        title: String, fences: Bool = false, tiles: MapPage.TilesChoice = .daemon, leaflet: MapPage.Leaflet? = nil,
        emit: @escaping (String) -> Void
    ) -> any ExportWriter {
        switch self {
        case .gpx: GPXExport(title: title, emit: emit)
        case .geojson: GeoJSONExport(fences: fences, emit: emit)
        case .kml: KMLExport(title: title, emit: emit)
        case .csv: CSVExport(emit: emit)
        case .html: MapPage(title: title, tiles: tiles, leaflet: leaflet, emit: emit)
        case .svg: MapPage(title: title, svgOnly: true, emit: emit)
        }
    }
}

/// Numbers and text as the formats want them.
enum Text {
    /// `value` with at most `places` decimals, never in exponent form (XML Schema's decimal,
    /// KML's coordinates and CSV readers all refuse `1e-05`).
    static func decimal(_ value: Double, _ places: Int) -> String { FixedDecimal.text(value, places: places) }

    /// XML character data and attribute values.
    static func xml(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // XML 1.0 forbids most control characters even escaped.
            case _ where c.value < 0x20 && c != "\n" && c != "\t": out += " "
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

/// Which trip of the context a point falls in: points come in time order, so one index
/// moves forward through the trips' spans.
struct TripCursor {
    struct Span {
        var index: Int
        var start: Double
        var end: Double
    }
    let spans: [Span]
    private var next = 0

    init(_ trips: [AutoTrip], last: Double) {
        spans = trips.enumerated().map { i, t in
            Span(index: i, start: Timestamp.parse(t.startedAt) ?? 0, end: t.endedAt.flatMap(Timestamp.parse) ?? last)
        }
    }

    /// The trip (index into the context's trips) holding time `t`, if any.
    mutating func trip(at t: Double) -> Int? {
        while next < spans.count && spans[next].end < t { next += 1 }
        guard next < spans.count, spans[next].start <= t else { return nil }
        return spans[next].index
    }

    /// The trips whose span ended before `t` (or all, with nil) that the cursor passed.
    var passed: Int { next }
}
