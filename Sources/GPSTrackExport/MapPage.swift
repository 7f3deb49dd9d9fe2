import GPSTrackProtocol
import GPSTrackVocabulary

/// The map page (`--format html`): one file that needs nothing but a browser, no request to any
/// network (its Content-Security-Policy forbids them): the map (an inline SVG in
/// `MapProjection`), the track coloured by speed (`SpeedPalette`) with its legend, fences,
/// stops and events marked and labelled, a scale bar and north arrow; under it the speed (and
/// altitude) profile over time, then the trips' and stops' figures. `--format svg` is the map
/// alone. The track is written as its points come (points closer than a unit to the last
/// drawn one are left out); the profile keeps one column of figures per unit of its width.
public struct MapPage: ExportWriter {
    let title: String
    let svgOnly: Bool
    let emit: (String) -> Void
    /// `--tiles`: the daemon's `map_tiles_url` (nil here), none, or a URL of the caller's.
    let tilesChoice: TilesChoice
    /// Leaflet's script and style, read where Debian's libjs-leaflet puts them; nil without it.
    let leaflet: Leaflet?
    /// The tiles in force for this page (decided at `begin`).
    private var tiles: MapTiles?
    private var context: ExportContext?
    private var projection: MapProjection?
    private var profile: SpeedProfile?
    /// The polyline being written: its colour bin, its points, how many, and the last drawn point.
    private var bin: Int?
    private var line = ""
    private var vertices = 0
    private var last: (Double, Double)?

    public init(
        title: String, svgOnly: Bool = false, tiles: TilesChoice = .daemon, leaflet: Leaflet? = nil,
        emit: @escaping (String) -> Void
    ) {
        self.title = title
        self.svgOnly = svgOnly
        self.tilesChoice = tiles
        self.leaflet = leaflet
        self.emit = emit
    }

    static let mapStyle = """
        .bg{fill:#f6f4ee}.fence{fill:#8a8a8a;fill-opacity:.12;stroke:#6b6b6b;stroke-width:1.5;stroke-dasharray:6 4}\
        .corr{fill:none;stroke:#8a8a8a;stroke-opacity:.25;stroke-linecap:round}\
        .trk polyline{fill:none;stroke-width:3.5;stroke-linejoin:round;stroke-linecap:round}\
        .stop{fill:#fff;stroke:#000;stroke-width:2.5}.ev{fill:#7b3294;stroke:#fff;stroke-width:1}\
        text{font:13px sans-serif;fill:#111;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}\
        .title{font-size:17px;font-weight:bold}.num{font-weight:bold}.ld{stroke:#444;stroke-width:1}
        """ + SpeedPalette.colors.enumerated().map { ".s\($0.offset){stroke:\($0.element)}" }.joined()

    public mutating func begin(_ context: ExportContext) {
        self.context = context
        let p = MapProjection(context.bounds)
        projection = p
        profile = SpeedProfile(context.bounds)
        let h = MapProjection.height + 60
        var s = ""
        if !svgOnly {
            tiles = TileLayer.decide(tilesChoice, context)
            let streets = tiles.flatMap { t in leaflet.map { (t, $0) } }
            // The one origin the page may fetch from: the tiles' (none without them).
            let img = streets.map { "data: " + $0.0.origin } ?? "data:"
            s += """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8">
                <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
                script-src 'unsafe-inline'; img-src \(img); base-uri 'none'; form-action 'none'">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <link rel="icon" href="data:,"><title>\(Text.xml(title))</title>
                <style>\(PageParts.pageStyle)\(streets.map { $0.1.css + TileLayer.style } ?? "")</style></head>
                <body>

                """
            if let (t, _) = streets {
                s += TileLayer.container(t)
            } else if tiles != nil {
                s += "<p class=\"note\">\(TileLayer.noLeaflet)</p>\n"
            }
        } else {
            s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        }
        s += """
            <svg id="map" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Text.decimal(MapProjection.width, 0)) \(Text.decimal(h, 0))" \
            width="\(Text.decimal(MapProjection.width, 0))" height="\(Text.decimal(h, 0))" \
            data-lat0="\(Text.decimal(p.lat0, 9))" data-lon0="\(Text.decimal(p.lon0, 9))" data-k="\(Text.decimal(p.k, 9))" \
            data-radius="\(Text.decimal(MapProjection.radius, 1))" role="img" aria-label="\(Text.xml(title))">
            <style>\(Self.mapStyle)</style>
            <rect class="bg" width="100%" height="100%"/>
            <g class="fences">\(PageParts.fences(context.fences, p))</g>
            <g class="trk">

            """
        emit(s)
    }

    public mutating func point(_ pt: ExportPoint) {
        guard let p = projection else { return }
        profile?.add(pt)
        let xy = (p.x(pt.lon), p.y(pt.lat))
        if pt.segment || last == nil {
            flush()
            start(xy, bin: nil)
            return
        }
        let b = pt.speedMps.map(SpeedPalette.bin) ?? bin ?? 0
        if bin == nil { bin = b }
        if b != bin || vertices >= 400 {
            let from = last!
            flush()
            start(from, bin: b)
        }
        guard let l = last, abs(xy.0 - l.0) >= 1 || abs(xy.1 - l.1) >= 1 || b != bin else { return }
        add(xy)
    }

    private mutating func start(_ xy: (Double, Double), bin b: Int?) {
        bin = b
        line = ""
        vertices = 0
        add(xy)
    }

    private mutating func add(_ xy: (Double, Double)) {
        line += (vertices > 0 ? " " : "") + "\(Text.decimal(xy.0, 1)),\(Text.decimal(xy.1, 1))"
        vertices += 1
        last = xy
    }

    private mutating func flush() {
        if vertices >= 2 { emit("<polyline class=\"s\(bin ?? 0)\" points=\"\(line)\"/>\n") }
        line = ""
        vertices = 0
    }

    public mutating func finish() {
        guard let context, let p = projection else { return }
        flush()
        let markers = PageParts.markers(context, p, title: title)
        var s = "</g>\n" + markers.svg + PageParts.furniture(title: title, p) + "</svg>\n"
        if !svgOnly {
            if tiles != nil, let leaflet {
                s += "</div><script>\(leaflet.js)</script><script>\(TileLayer.script)</script>\n"
            }
            s += PageParts.labelList(markers.listed)
            s += profile?.svg(context) ?? ""
            s += PageParts.figures(context) + "<script>\(PageParts.script)</script>\n</body></html>\n"
        }
        emit(s)
    }
}
