import GPSTrackJSON
import GPSTrackProtocol

/// Events for people: one line each, for `events` and `watch`.
extension Formatter {
    /// A `watch` line.
    static func event(_ line: WatchLine) -> String {
        switch line {
        case .event(let e): event(e)
        case .notice(let n): notice(n)
        }
    }

    /// `time  name[ trip][: trip's ends][, figures][ fence (name) state][: counts][ at lat,lon]  #seq`.
    static func event(_ e: EventLine) -> String {
        var time: String?
        var trip: Int?
        var ends = ""
        var distance: Double?
        var limit: Double?
        var speed: Double?
        var fence: EventLine.FenceChange?
        var counts: EventLine.FencesDetermined?
        var lat: Double?
        var lon: Double?
        switch e.body {
        case .enter(let f), .exit(let f), .dwell(let f), .state(let f):
            time = f.time
            fence = f
            lat = f.lat
            lon = f.lon
        case .fencesDetermined(let c):
            time = c.time
            counts = c
        case .tripStart(let t):
            time = t.time
            trip = t.trip
            lat = t.lat
            lon = t.lon
        case .tripEnd(let t):
            time = t.end
            trip = t.trip
            ends =
                ": \(place(t.from)) → \(place(t.to)), \(num(t.traveledM)) m in \(num(t.durationS)) s (from \(localTime(t.start)))"
                + (t.engineS.map { ", engine \(num($0)) s" } ?? "")
        case .guardBreach(let g):
            time = g.time
            distance = g.distanceM
            speed = g.speedMps
            if let n = g.repeat { ends = " (said again: \(n))" }
            lat = g.lat
            lon = g.lon
        case .overspeedStart(let o):
            time = o.time
            limit = o.limitKmh
            speed = o.speedMps
            lat = o.lat
            lon = o.lon
        case .overspeedEnd(let o):
            time = o.time
            distance = o.distanceM
            limit = o.limitKmh
            speed = o.maxSpeedMps
            lat = o.lat
            lon = o.lon
        case .fixAcquired(let f):
            time = f.time
            ends = f.device.map { " from \($0)" } ?? ""
            lat = f.lat
            lon = f.lon
        case .fixLost(let f):
            time = f.time
            ends = " (\(String(f.reason.map { $0 == "_" ? " " : $0 })))" + (f.device.map { " from \($0)" } ?? "")
        case .guardNoPosition(let g):
            time = g.time
            ends = ", no position for \(num(g.silentS)) s" + (g.repeat > 0 ? " (said again: \(g.repeat))" : "")
        case .anchor(let a):
            time = a.time
            ends = anchor(a)
            lat = a.lat ?? a.anchorLat
            lon = a.lon ?? a.anchorLon
        case .input(let i):
            time = i.time
            ends = input(i)
            lat = i.lat
            lon = i.lon
        default:
            // A kind with nothing of its own to print (`trip_stop`, `guard_armed`, ...): its time
            // and position as its fields are written, so that a new plain kind needs no case here.
            let fields = try? JSONValue.parse(Array(ReplyEncoder.encode(e).utf8))
            time = fields?["time"]?.string ?? fields?["end"]?.string
            lat = fields?["lat"]?.number
            lon = fields?["lon"]?.number
        }
        var text = "\(localTime(time))  \(e.body.name)"
        if let trip { text += " \(trip)" }
        text += ends
        if let distance { text += ", \(num(distance)) m" }
        if let limit { text += ", limit \(num(limit)) km/h" }
        if let speed { text += ", \(num(speed * 3.6)) km/h" }
        if let fence {
            text += " \(fence.fence)"
            if let name = fence.name { text += " (\(name))" }
            if let state = fence.state { text += " \(state)" }
            if fence.crossed == true { text += " (crossed between fixes)" }
        }
        if let c = counts { text += ": \(num(c.inside)) inside, \(num(c.outside)) outside, \(num(c.unknown)) unknown" }
        if let lat, let lon { text += " at \(num(lat, 6)),\(num(lon, 6))" }
        return text + "  #\(e.seq)"
    }

    /// An anchor event's figures: `, radius 50 m`, `, 61 m from the anchor (said again: 2)`.
    static func anchor(_ a: EventLine.AnchorChange) -> String {
        var text = ""
        if let r = a.radiusM { text += ", radius \(num(r)) m" }
        if let d = a.distanceM { text += ", \(num(d)) m from the anchor" }
        if let s = a.silentS { text += ", no position for \(num(s)) s" }
        if let m = a.maxDistanceM { text += ", at most \(num(m)) m from the anchor" }
        if let n = a.repeat, n > 0 { text += " (said again: \(n))" }
        return text
    }

    /// An input event's figures: `, engine 723 s (9000 s in all)`, `, battery 19 %, 11.9 V`.
    static func input(_ i: EventLine.InputChange) -> String {
        var text = ""
        if let e = i.engineS {
            text += ", engine \(num(e)) s" + (i.engineTotalS.map { " (\(num($0)) s in all)" } ?? "")
        }
        if let b = i.batteryPct { text += ", battery \(b) %" }
        if let v = i.volts { text += ", \(num(v, 1)) V" }
        if let n = i.repeat, n > 0 { text += " (said again: \(n))" }
        return text
    }

    /// `time  name[ fence (name)][ state]: message`: a notice has a time or fence only if its
    /// journal entry had such fields.
    static func notice(_ n: NoticeLine) -> String {
        var text = "\(localTime(n["time"] ?? n["end"]))  \(n.event)"
        if let fence = n["fence"] {
            text += " \(fence)"
            if let name = n["name"] { text += " (\(name))" }
        }
        if let state = n["state"] { text += " \(state)" }
        return text + ": \(n.message)"
    }
}
