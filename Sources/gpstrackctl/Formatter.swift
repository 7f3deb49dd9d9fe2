import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Human-readable renderings of the daemon's JSON responses.
enum Formatter {
    static func localTime(_ iso: String?) -> String {
        guard let iso, let t = Timestamp.parse(iso) else { return "-" }
        var secs = time_t(t.rounded(.down))
        var tm = tm()
        localtime_r(&secs, &tm)
        var buf = [CChar](repeating: 0, count: 64)
        let n = strftime(&buf, buf.count, "%Y-%m-%d %H:%M:%S", &tm)
        return String(decoding: buf.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func num(_ n: Double?, _ decimals: Int = 0) -> String {
        guard let n else { return "-" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (n * scale).rounded() / scale
        guard decimals == 0 else { return String(r) }
        // A reply's figure beyond Int (1e300 is valid JSON) is printed as it is, not trapped on.
        return Int(checking: r).map { String($0) } ?? String(r)
    }

    static func num(_ n: Int) -> String { String(n) }

    /// The pedometer's figures on one line.
    static func inputs(_ i: StatusReply.InputsStatus) -> String {
        var parts: [String] = []
        if let on = i.ignition { parts.append("ignition \(on), engine \(num(i.engineS)) s") }
        if let on = i.power {
            parts.append(
                "power \(on)" + (i.batteryPct.map { ", battery \($0) %" } ?? "")
                    + (i.volts.map { ", \(num($0, 2)) V" } ?? ""))
        }
        if let sos = i.sos { parts.append("sos \(sos)") }
        return parts.joined(separator: "; ")
    }

    static func steps(_ s: PedometerStatus) -> String {
        "\(num(s.total)) in all, \(num(s.trip)) this trip, \(num(s.distanceM)) m walked, "
            + "\(num(s.cadenceSpm)) steps/min now (\(s.kind) \(s.source), "
            + "stride \(num(s.strideM, 2)) m\(s.strideLearned ? " learned" : ""))"
    }

    static func status(_ r: StatusReply) -> String {
        var lines: [String] = []
        lines.append(
            "gpsd      \(r.gpsd.address) \(r.gpsd.connected ? "connected" : "not connected")"
                + (r.gpsd.device.map { " (\($0))" } ?? ""))
        // Only when there is a choice: one receiver is the gpsd line's device.
        if r.receivers.count > 1 {
            for x in r.receivers {
                lines.append(
                    "receiver  \(x.path)\(x.followed ? " (followed)" : ""): mode \(x.mode)"
                        + (x.eph.map { ", eph \($0) m" } ?? "") + (x.lastFix.map { ", last fix \($0)" } ?? "")
                        + (x.ignored > 0 ? ", \(x.ignored) fixes ignored" : ""))
            }
        }
        if let fix = r.fix {
            let mode = fix.mode == 3 ? "3D" : "2D"
            lines.append(
                "fix       \(mode) \(num(fix.lat, 6)), \(num(fix.lon, 6)) ±\(num(fix.eph)) m, "
                    + "\(num(fix.speed, 1)) m/s, course \(fix.courseText), "
                    + "\(localTime(fix.time)) (\(num(fix.ageS)) s ago)")
        } else {
            lines.append("fix       none")
        }
        if let k = r.sky {
            let dops = [("HDOP", k.hdop), ("VDOP", k.vdop), ("PDOP", k.pdop)].compactMap { n, v in
                v.map { "\(n) \(num($0, 2))" }
            }
            lines.append(
                "sky       \(k.satellitesUsed.map { num($0) } ?? "?") of \(k.satellitesSeen.map { num($0) } ?? "?") satellites used"
                    + (dops.isEmpty ? "" : ", " + dops.joined(separator: " ")))
        }
        let trip = r.trip
        lines.append(
            "trip      \(trip.state) since \(localTime(trip.startedAt)): "
                + "\(num(trip.traveledM)) m traveled, \(num(trip.straightLineM)) m in a straight line")
        if let steps = r.steps { lines.append("steps     " + Self.steps(steps)) }
        if let i = r.inputs { lines.append("inputs    " + Self.inputs(i)) }
        if let m = r.motion {
            var line = "motion    \(m.state)"
            if let since = m.since { line += " since \(localTime(since))" }
            if case .some(.some(let t)) = r.currentTrip {
                line +=
                    "; trip \(num(t.id)) from \(place(t.from)) since \(localTime(t.startedAt)), \(num(t.traveledM)) m"
            }
            lines.append(line)
        }
        if let g = r.guard {
            var line = "guard     \(g.state)"
            if let at = g.armedAt {
                line += " around \(num(at.lat, 6)),\(num(at.lon, 6)) since \(localTime(g.since ?? nil))"
            }
            lines.append(line)
        }
        let inside = r.fences.filter { $0.state == "inside" }.map(\.id)
        lines.append(
            "fences    \(r.fences.count) loaded; inside: \(inside.isEmpty ? "none" : inside.joined(separator: ", "))")
        let c = r.counters
        var rejected = ""
        if !c.fixesRejected.counts.isEmpty {
            rejected =
                " ("
                + c.fixesRejected.counts.keys.sorted().map { "\($0) \(num(c.fixesRejected.counts[$0]!))" }.joined(
                    separator: ", ") + ")"
        }
        lines.append("fixes     \(num(c.fixesTotal)) seen, \(num(c.fixesAccepted)) accepted\(rejected)")
        lines.append("storage   " + storage(r.storage))
        lines.append("daemon    gpstrackd \(r.version), up \(num(r.uptimeS)) s, event seq \(num(r.seq))")
        return lines.joined(separator: "\n")
    }

    /// The store's state, with what waits, was thinned or dropped when any.
    static func storage(_ s: StatusReply.StorageStatus) -> String {
        var line = s.state + (s.reason.map { " (\($0))" } ?? "") + (s.path.map { ", \($0)" } ?? "")
        let counts: [(Int?, String)] = [
            (s.waitingEvents, "events waiting"), (s.waitingPoints, "track points waiting"),
            (s.thinnedPoints, "track points thinned"), (s.thinnedLocations, "MQTT locations thinned"),
            (s.droppedEvents, "events dropped"), (s.droppedPoints, "track points dropped"),
        ]
        let said = counts.compactMap { n, what in n.flatMap { $0 > 0 ? "\($0) \(what)" : nil } }
        if !said.isEmpty { line += ": " + said.joined(separator: ", ") }
        return line
    }

    /// "Home" (the fences at a place), else its coordinates.
    static func place(_ p: Place) -> String {
        if !p.fences.isEmpty { return p.fences.joined(separator: "/") }
        return "\(num(p.lat, 5)),\(num(p.lon, 5))"
    }

    /// A table of rows, columns padded to their widest cell (the last one not).
    static func table(_ rows: [[String]]) -> String {
        guard let width = rows.first?.count else { return "" }
        let widths = (0..<width).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == width - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }
            .joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// `gpstrackctl trips` (automatic trips).
    static func autoTrips(_ r: AutoTripsReply) -> String {
        // ENGINE only when a trip has the ignition's seconds (`input_ignition`).
        let engine = r.trips.contains { $0.engineS != nil }
        var rows = [
            ["ID", "STATE", "START", "END", "FROM → TO", "DISTANCE", "STRAIGHT", "DURATION", "MOVING", "MAX", "AVG"]
                + (engine ? ["ENGINE"] : [])
        ]
        for t in r.trips {
            let to = t.to.map(place) ?? "…"
            rows.append(
                [
                    num(t.id), t.state, localTime(t.startedAt), localTime(t.endedAt), "\(place(t.from)) → \(to)",
                    "\(num(t.traveledM)) m", t.straightLineM == nil ? "-" : "\(num(t.straightLineM)) m",
                    "\(num(t.durationS)) s",
                    t.movingS == nil ? "-" : "\(num(t.movingS)) s",
                    t.maxSpeedMps.map { "\(num($0 * 3.6)) km/h" } ?? "-",
                    t.avgSpeedMps.map { "\(num($0 * 3.6)) km/h" } ?? "-",
                ] + (engine ? [t.engineS.map { "\(num($0)) s" } ?? "-"] : []))
        }
        return rows.count == 1 ? "no trips yet" : table(rows)
    }

    /// `gpstrackctl trips` (the manual counter's trips).
    static func storedTrips(_ r: StoredTripsReply) -> [String] {
        var lines = ["ID  STATE     START                END                  DISTANCE  DURATION"]
        for t in r.trips {
            let id = num(t.id)
            lines.append(
                id + String(repeating: " ", count: max(1, 4 - id.count)) + t.state.padding(9)
                    + " " + localTime(t.startedAt).padding(20) + " " + localTime(t.endedAt).padding(20)
                    + " " + (num(t.traveledM) + " m").padding(9) + " " + num(t.durationS) + " s")
        }
        return lines
    }

    /// `gpstrackctl stops`.
    static func stops(_ r: StopsReply) -> String {
        var rows = [["PLACE", "FENCES", "ARRIVAL", "DEPARTURE", "DURATION"]]
        for s in r.stops {
            let fences = s.at.fences.joined(separator: ", ")
            rows.append([
                "\(num(s.at.lat, 5)),\(num(s.at.lon, 5))", fences.isEmpty ? "-" : fences,
                localTime(s.arrival), s.departure == nil ? "(here)" : localTime(s.departure),
                "\(num(s.durationS)) s",
            ])
        }
        return rows.count == 1 ? "no stops yet" : table(rows)
    }

    static func fences(_ r: FencesReply) -> String {
        if r.fences.isEmpty { return "no fences loaded" }
        var rows = [["ID", "NAME", "KIND", "STATE", "SINCE", "LAST EVENT"]]
        for f in r.fences {
            rows.append([f.id, f.name ?? "", f.kind ?? "", f.state, localTime(f.since), (f.lastEvent ?? nil) ?? "-"])
        }
        return table(rows)
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
