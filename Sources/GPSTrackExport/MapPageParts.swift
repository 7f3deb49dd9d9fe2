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
                s +=
                    "<text class=\"fl\" x=\"\(Text.decimal(p.x(lon), 1))\" y=\"\(Text.decimal(p.y(lat) - r * p.k - 4, 1))\" "
                    + "text-anchor=\"middle\">\(label)</text>"
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

    static func markers(_ c: ExportContext, _ p: MapProjection) -> String {
        var s = "<g class=\"events\">"
        for e in c.events {
            let x = p.x(e.lon)
            let y = p.y(e.lat)
            let label = Text.xml(e.kind + (e.fence.map { " " + (e.name ?? $0) } ?? "") + " " + Clock.hm(e.time))
            s +=
                "<path class=\"ev\" d=\"M\(Text.decimal(x, 1)),\(Text.decimal(y - 5, 1))l5,5l-5,5l-5,-5z\"><title>\(label)</title></path>"
            s += "<text x=\"\(Text.decimal(x + 8, 1))\" y=\"\(Text.decimal(y + 16, 1))\">\(label)</text>"
        }
        s += "</g><g class=\"stops\">"
        for (n, st) in c.stops.enumerated() {
            let x = p.x(st.at.lon)
            let y = p.y(st.at.lat)
            let place = st.at.fences.isEmpty ? "" : " " + st.at.fences.joined(separator: ", ")
            let label = Text.xml("Stop \(n + 1)\(place) \(Clock.hm(st.arrival))–\(st.departure.map(Clock.hm) ?? "")")
            s +=
                "<circle class=\"stop\" cx=\"\(Text.decimal(x, 1))\" cy=\"\(Text.decimal(y, 1))\" r=\"6\"><title>\(label)</title></circle>"
            s += "<text x=\"\(Text.decimal(x + 10, 1))\" y=\"\(Text.decimal(y - 8, 1))\">\(label)</text>"
        }
        return s + "</g>\n"
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
