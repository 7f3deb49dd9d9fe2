import GPSTrackProtocol
import GPSTrackVocabulary

#if canImport(Glibc)
import Glibc
#endif

extension MapPage {
    /// Which tiles a page draws under the track (`gpstrackctl export --tiles`).
    public enum TilesChoice: Sendable, Equatable {
        /// The daemon's `map_tiles_url` (the export's context).
        case daemon
        /// None: the page fetches nothing.
        case none
        case url(MapTiles)
    }

    /// Leaflet's script and style, inlined into the page: the page fetches no script or style.
    public struct Leaflet: Sendable {
        public let js: String
        public let css: String

        public init(js: String, css: String) {
            self.js = js
            self.css = css
        }

        /// Where Debian's libjs-leaflet puts them.
        public static let directory = "/usr/share/javascript/leaflet"

        /// Reads `leaflet.min.js` and `leaflet.css` from `directory`; nil when either is missing.
        public static func load(from directory: String = directory) -> Leaflet? {
            guard let js = read(directory + "/leaflet.min.js"), let css = read(directory + "/leaflet.css"),
                js.contains("L.version") || js.contains("leafletjs")
            else { return nil }
            // The closing tag of a script cannot stand inside it.
            guard !js.contains("</script"), !css.contains("</style") else { return nil }
            return Leaflet(js: js, css: css)
        }

        /// A whole file of at most 4 MiB as text.
        static func read(_ path: String) -> String? {
            guard let f = fopen(path, "rb") else { return nil }
            defer { fclose(f) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = fread(&chunk, 1, chunk.count, f)
                if n == 0 { break }
                bytes += chunk[0..<n]
                if bytes.count > 4 << 20 { return nil }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// The streets under the map (issue 44): Leaflet draws the tiles and, over them, the SVG's own
/// track, fences, markers and labels, read back from the SVG through its documented projection
/// at the SVG's own scale (a fractional zoom), so that every label stands where the SVG placed
/// it. The Leaflet map stays hidden until a tile has loaded: offline, or with the tile server
/// down, the page is the SVG page, with no broken image and nothing in the console.
enum TileLayer {
    /// The tiles in force: the caller's choice, else the daemon's, read again as strictly as
    /// the daemon read them (its reply is input here); one that does not read is none.
    static func decide(_ choice: MapPage.TilesChoice, _ context: ExportContext) -> MapTiles? {
        switch choice {
        case .none: return nil
        case .url(let t): return t
        case .daemon:
            guard let url = context.tiles else { return nil }
            let attribution = context.tilesAttribution ?? MapTiles.osmAttribution
            return (try? MapTiles.parse(url, attribution: attribution).get()) ?? nil
        }
    }

    static let noLeaflet =
        "This page draws the track alone: streets under it need the package libjs-leaflet where it was exported."

    static let style = """
        #mapbox{position:relative;max-width:1000px}#lmap{position:absolute;left:0;top:0;width:100%;\
        aspect-ratio:1000/700;visibility:hidden;background:#f6f4ee}#lmap.on{visibility:visible}\
        .llbl{font:13px sans-serif;color:#111;white-space:nowrap;text-shadow:0 0 3px #fff,0 0 3px #fff,0 0 2px #fff}\
        .llbl.num{font-weight:bold}.note{margin:4px 12px;color:#444}
        """

    /// The box the SVG and the Leaflet map share (closed after the SVG), with the tiles' URL
    /// and attribution for the script.
    static func container(_ t: MapTiles) -> String {
        "<div id=\"mapbox\"><div id=\"lmap\" data-tiles=\"\(Text.xml(t.url))\" data-attribution=\"\(Text.xml(attribution(t)))\"></div>\n"
    }

    /// The attribution as Leaflet shows it (HTML): OpenStreetMap's with its copyright page.
    static func attribution(_ t: MapTiles) -> String {
        t.attribution == MapTiles.osmAttribution
            ? "© <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"
            : Text.xml(t.attribution)
    }

    /// Builds the Leaflet map from the SVG (see the type's note). Zoom: Web Mercator's metres a
    /// pixel at the centre, 40075016.686 cos(lat0) / (256 2^z), equal to the SVG's 1/k.
    static let script = """
        (function(){var box=document.getElementById('lmap'),svg=document.getElementById('map');if(!box||!svg||!window.L)return;\
        var d=svg.dataset,lat0=+d.lat0,lon0=+d.lon0,k=+d.k,R=+d.radius,W=1000,H=700,c=Math.cos(lat0*Math.PI/180);\
        function ll(x,y){return[lat0-(y-H/2)/(k*R)*180/Math.PI,lon0+(x-W/2)/(k*R*c)*180/Math.PI];}\
        function pts(s){return s.trim().split(/\\s+/).map(function(p){var a=p.split(',');return ll(+a[0],+a[1]);});}\
        function num(e,n){return +e.getAttribute(n);}\
        var m=L.map(box,{zoomSnap:0,zoomDelta:0.5});\
        function view(){var w=box.clientWidth||W;m.setView([lat0,lon0],Math.log(40075016.686*c*k*w/W/256)/Math.LN2,{animate:false});}\
        view();L.control.scale({imperial:false}).addTo(m);\
        var t=L.tileLayer(box.dataset.tiles,{attribution:box.dataset.attribution,maxZoom:22,maxNativeZoom:19});\
        t.once('tileload',function(){box.classList.add('on');m.invalidateSize();view();document.body.setAttribute('data-tiles','shown');});\
        t.on('tileerror',function(){if(!box.classList.contains('on'))document.body.setAttribute('data-tiles','failed');});\
        t.addTo(m);var q=function(s,f){Array.prototype.forEach.call(svg.querySelectorAll(s),f);};\
        var fence={color:'#555',weight:1.5,dashArray:'6 4',fillColor:'#8a8a8a',fillOpacity:0.12,interactive:false};\
        q('.fences circle',function(e){L.circle(ll(num(e,'cx'),num(e,'cy')),Object.assign({radius:num(e,'r')/k},fence)).addTo(m);});\
        q('.fences path',function(e){L.polygon(e.getAttribute('d').split('Z').filter(function(r){return r.trim();})\
        .map(function(r){return pts(r.replace('M','').replace(/L/g,' '));}),fence).addTo(m);});\
        q('.fences polyline',function(e){L.polyline(pts(e.getAttribute('points')),{color:'#8a8a8a',opacity:0.35,\
        weight:num(e,'stroke-width'),interactive:false}).addTo(m);});\
        q('.trk polyline',function(e){L.polyline(pts(e.getAttribute('points')),{color:getComputedStyle(e).stroke,weight:3.5,\
        opacity:1,interactive:false}).addTo(m);});\
        q('.stops circle',function(e){L.circleMarker(ll(num(e,'cx'),num(e,'cy')),{radius:6,color:'#000',weight:2.5,\
        fillColor:'#fff',fillOpacity:1}).bindTooltip(e.textContent).addTo(m);});\
        q('.events path',function(e){var a=e.getAttribute('d').slice(1).split(/[,l]/);L.circleMarker(ll(+a[0],+a[1]+5),\
        {radius:5,color:'#fff',weight:1,fillColor:'#7b3294',fillOpacity:1}).bindTooltip(e.textContent).addTo(m);});\
        q('.labels line',function(e){L.polyline([ll(num(e,'x1'),num(e,'y1')),ll(num(e,'x2'),num(e,'y2'))],\
        {color:'#444',weight:1,interactive:false}).addTo(m);});\
        q('.labels text',function(e){var s=document.createElement('span');s.className='llbl'+(e.classList.contains('num')?' num':'');\
        s.textContent=e.textContent;L.marker(ll(num(e,'x')-1.5,num(e,'y')-13),{icon:L.divIcon({className:'',html:s,\
        iconSize:null,iconAnchor:[0,0]}),interactive:false,keyboard:false}).addTo(m);});})();
        """
}
