import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The map page's parts other than the track: fences, markers, furniture, figures, style, script.
enum PageParts {
    static let pageStyle = """
        body{margin:0;font:15px/1.4 sans-serif;color:#111;background:#fff}\
        #map,#profile{display:block;width:100%;height:auto;max-width:1000px}\
        main{padding:0 12px 24px;max-width:976px}table{border-collapse:collapse;margin:8px 0 16px;font-size:14px}\
        th,td{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}td.n{text-align:right}\
        .wide{overflow-x:auto}#readout{min-height:1.4em;color:#444}\
        .lbls{columns:2;max-width:940px;margin:4px 0;padding:0 12px 0 48px;font-size:14px}\
        @media (max-width:600px){body{font-size:14px}th,td{padding:2px 5px}#map .trk polyline{stroke-width:8}}\
        @media print{main{max-width:none}.wide{overflow:visible}#readout{display:none}}
        """

    static func fences(_ fences: [ExportFence], _ p: MapProjection) -> String {
        var s = ""
        for f in fences {
            let label = Text.xml(f.name ?? f.id)
            switch f.kind {
            case "circle":
                guard let lat = f.lat, let lon = f.lon, let r = f.radiusM else { continue }
                s +=
                    "<circle class=\"fence\" cx=\"\(Text.decimal(p.x(lon), 1))\" cy=\"\(Text.decimal(p.y(lat), 1))\" "
                    + "r=\"\(Text.decimal(r * p.k, 1))\"><title>\(label)</title></circle>"
            case "corridor":
                for l in f.rings.first ?? [] {
                    s +=
                        "<polyline class=\"corr\" stroke-width=\"\(Text.decimal((f.widthM ?? 0) * p.k, 1))\" points=\""
                        + l.map { p.point($0[1], $0[0]) }.joined(separator: " ")
                        + "\"><title>\(label)</title></polyline>"
                }
            default:
                for polygon in f.rings {
                    let d = polygon.map { ring in "M" + ring.map { p.point($0[1], $0[0]) }.joined(separator: "L") + "Z"
                    }.joined()
                    s += "<path class=\"fence\" fill-rule=\"evenodd\" d=\"\(d)\"><title>\(label)</title></path>"
                }
            }
        }
        return s
    }

    /// The stops' and events' markers, then every label (a circle fence's, a stop's, an
    /// event's) placed by `MapLabels` so that none overlaps another, a marker or the title;
    /// returned with the labels drawn as numbers, for the list under the map.
    static func markers(_ c: ExportContext, _ p: MapProjection, title: String) -> (svg: String, listed: [(Int, String)])
    {
        let events = c.events.map { e in
            (
                x: p.x(e.lon), y: p.y(e.lat),
                text: e.kind + (e.fence.map { " " + (e.name ?? $0) } ?? "") + " " + Clock.hm(e.time)
            )
        }
        let stops = c.stops.enumerated().map { n, st in
            let place = st.at.fences.isEmpty ? "" : " " + st.at.fences.joined(separator: ", ")
            return (
                x: p.x(st.at.lon), y: p.y(st.at.lat),
                text: "Stop \(n + 1)\(place) \(Clock.hm(st.arrival))–\(st.departure.map(Clock.hm) ?? "")"
            )
        }
        var s = "<g class=\"events\">"
        for e in events {
            s +=
                "<path class=\"ev\" d=\"M\(Text.decimal(e.x, 1)),\(Text.decimal(e.y - 5, 1))l5,5l-5,5l-5,-5z\">"
                + "<title>\(Text.xml(e.text))</title></path>"
        }
        s += "</g><g class=\"stops\">"
        for st in stops {
            s +=
                "<circle class=\"stop\" cx=\"\(Text.decimal(st.x, 1))\" cy=\"\(Text.decimal(st.y, 1))\" r=\"6\">"
                + "<title>\(Text.xml(st.text))</title></circle>"
        }
        let w = MapProjection.width
        var obstacles = [
            MapLabels.Box(x: 6, y: 6, w: Double(title.count) * 11 + 12, h: 28),  // the title, 17 px bold
            MapLabels.Box(x: w - 42, y: 0, w: 42, h: 46),  // the north arrow
        ]
        obstacles += events.map { MapLabels.Box(x: $0.x - 6, y: $0.y - 6, w: 12, h: 12) }
        obstacles += stops.map { MapLabels.Box(x: $0.x - 8, y: $0.y - 8, w: 16, h: 16) }
        var labels = MapLabels(area: MapLabels.Box(x: 0, y: 0, w: w, h: MapProjection.height), obstacles: obstacles)
        var placed: [MapLabels.Placed] = []
        for f in c.fences where f.kind == "circle" {
            guard let lat = f.lat, let lon = f.lon, let r = f.radiusM else { continue }
            placed.append(labels.place(f.name ?? f.id, x: p.x(lon), y: p.y(lat) - r * p.k, gap: 3, first: -.pi / 2))
        }
        for st in stops { placed.append(labels.place(st.text, x: st.x, y: st.y, gap: 8, first: -.pi / 4)) }
        for e in events { placed.append(labels.place(e.text, x: e.x, y: e.y, gap: 6)) }
        s += "</g><g class=\"labels\">"
        for l in placed {
            if let (x1, y1, x2, y2) = l.leader {
                s +=
                    "<line class=\"ld\" x1=\"\(Text.decimal(x1, 1))\" y1=\"\(Text.decimal(y1, 1))\" "
                    + "x2=\"\(Text.decimal(x2, 1))\" y2=\"\(Text.decimal(y2, 1))\"/>"
            }
            guard let b = l.box else { continue }
            s +=
                "<text class=\"lbl\(l.number == nil ? "" : " num")\" x=\"\(Text.decimal(b.x + 1.5, 1))\" "
                + "y=\"\(Text.decimal(b.y + MapLabels.baseline, 1))\">\(Text.xml(l.number.map(String.init) ?? l.text))</text>"
        }
        let listed = placed.compactMap { l in l.number.map { ($0, l.text) } }
        return (s + "</g>\n", listed)
    }

    /// The labels drawn as numbers, under the map: each number with its text.
    static func labelList(_ listed: [(Int, String)]) -> String {
        guard !listed.isEmpty else { return "" }
        return "<ol id=\"labels\" class=\"lbls\">"
            + listed.map { "<li value=\"\($0.0)\">\(Text.xml($0.1))</li>" }.joined() + "</ol>\n"
    }

    /// The title, north arrow, scale bar and speed legend: in the margins and the strip below
    /// the plot area, where the track never goes.
    static func furniture(title: String, _ p: MapProjection) -> String {
        let w = MapProjection.width
        let h = MapProjection.height
        var s = "<text class=\"title\" x=\"12\" y=\"26\">\(Text.xml(title))</text>"
        s +=
            "<g class=\"north\" transform=\"translate(\(Text.decimal(w - 24, 0)),8)\"><path d=\"M0,0l7,22h-14z\" fill=\"#111\"/>"
            + "<text x=\"0\" y=\"34\" text-anchor=\"middle\" font-weight=\"bold\">N</text></g>"
        let bar = p.scaleBar
        s +=
            "<g class=\"scale\" transform=\"translate(12,\(Text.decimal(h + 20, 0)))\">"
            + "<rect width=\"\(Text.decimal(bar.units, 1))\" height=\"6\" fill=\"#111\"/>"
            + "<text x=\"0\" y=\"24\">0</text><text x=\"\(Text.decimal(bar.units, 1))\" y=\"24\" text-anchor=\"middle\">\(bar.label)</text></g>"
        s +=
            "<g class=\"legend\" transform=\"translate(\(Text.decimal(w - 560, 0)),\(Text.decimal(h + 14, 0)))\"><text x=\"0\" y=\"14\">km/h</text>"
        for (i, label) in SpeedPalette.labels.enumerated() {
            let x = 48 + i * 84
            s +=
                "<rect x=\"\(x)\" y=\"4\" width=\"22\" height=\"12\" fill=\"\(SpeedPalette.colors[i])\"/>"
                + "<text x=\"\(x + 26)\" y=\"15\">\(label)</text>"
        }
        return s + "</g>\n"
    }

    static func figures(_ c: ExportContext) -> String {
        func km(_ m: Double?) -> String { m.map { Text.decimal($0 / 1000, 2) } ?? "–" }
        func kmh(_ v: Double?) -> String { v.map { Text.decimal($0 * 3.6, 1) } ?? "–" }
        func place(_ p: Place?) -> String {
            Text.xml(p.map { $0.fences.isEmpty ? "–" : $0.fences.joined(separator: ", ") } ?? "–")
        }
        // The engine's time only on a box with an ignition input (a trip's `engine_s`).
        let engine = c.trips.contains { $0.engineS != nil }
        var s = "<main><p id=\"readout\"></p>"
        s +=
            "<p>\(c.bounds.points) track points, \(Timestamp.iso8601(c.bounds.first)) to \(Timestamp.iso8601(c.bounds.last)) (times in UTC).</p>"
        s +=
            "<h2>Trips</h2><div class=\"wide\"><table id=\"trips\"><tr><th>Trip</th><th>Start</th><th>End</th><th>From → to</th>"
            + "<th>km</th><th>Duration</th><th>Moving</th>" + (engine ? "<th>Engine</th>" : "")
            + "<th>Max km/h</th><th>Avg km/h</th></tr>"
        for t in c.trips {
            s +=
                "<tr><td>\(t.id)</td><td>\(Clock.hm(t.startedAt))</td><td>\(t.endedAt.map(Clock.hm) ?? "open")</td>"
                + "<td>\(place(t.from)) → \(place(t.to))</td><td class=\"n\">\(km(t.traveledM))</td>"
                + "<td>\(Clock.duration(t.durationS))</td><td>\(Clock.duration(t.movingS))</td>"
                + (engine ? "<td>\(Clock.duration(t.engineS))</td>" : "")
                + "<td class=\"n\">\(kmh(t.maxSpeedMps))</td><td class=\"n\">\(kmh(t.avgSpeedMps))</td></tr>"
        }
        s +=
            "</table></div><h2>Stops</h2><div class=\"wide\"><table id=\"stops\"><tr><th>Stop</th><th>Place</th>"
            + "<th>Arrival</th><th>Departure</th><th>Duration</th></tr>"
        for (n, st) in c.stops.enumerated() {
            s +=
                "<tr><td>\(n + 1)</td><td>\(place(st.at))</td><td>\(Clock.hm(st.arrival))</td>"
                + "<td>\(st.departure.map(Clock.hm) ?? "still there")</td><td>\(Clock.duration(st.durationS))</td></tr>"
        }
        return s + "</table></div><p>\(c.events.count) events marked ◆ on the map.</p></main>\n"
    }

    /// Says the page ran (`data-ready`, which the tests read) and reads the profile under the
    /// pointer out as time and speed.
    static let script = """
        (function(){var p=document.getElementById('profile'),r=document.getElementById('readout'),c=document.getElementById('cursor');\
        if(p&&r&&c){p.addEventListener('pointermove',function(e){var b=p.getBoundingClientRect(),vb=p.viewBox.baseVal;\
        var x=(e.clientX-b.left)*vb.width/b.width;var t0=+p.dataset.t0,t1=+p.dataset.t1,x0=+p.dataset.x0,x1=+p.dataset.x1;\
        if(x<x0||x>x1)return;c.setAttribute('x1',x);c.setAttribute('x2',x);\
        var t=new Date((t0+(x-x0)/(x1-x0)*(t1-t0))*1000);r.textContent=t.toISOString().slice(11,19)+' UTC';});}\
        document.body.setAttribute('data-ready','1');})();
        """
}
