#if canImport(Glibc)
import Glibc
#endif
import GPSTrackProtocol

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

    static func num(_ v: JSONValue?, _ decimals: Int = 0) -> String {
        guard let n = v?.number else { return "-" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (n * scale).rounded() / scale
        return decimals == 0 ? String(Int(r)) : String(r)
    }

    /// The pedometer's figures on one line.
    static func steps(_ s: JSONValue) -> String {
        "\(num(s["total"])) in all, \(num(s["trip"])) this trip, \(num(s["distance_m"])) m walked, "
            + "\(num(s["cadence_spm"])) steps/min now (\(s["kind"]?.string ?? "?") \(s["source"]?.string ?? "?"), "
            + "stride \(num(s["stride_m"], 2)) m\(s["stride_learned"] == .bool(true) ? " learned" : ""))"
    }

    static func status(_ r: JSONValue) -> String {
        var lines: [String] = []
        let gpsd = r["gpsd"]
        let connected = gpsd?["connected"] == .bool(true)
        lines.append("gpsd      \(gpsd?["address"]?.string ?? "") \(connected ? "connected" : "not connected")"
                     + (gpsd?["device"]?.string.map { " (\($0))" } ?? ""))
        if let fix = r["fix"], fix != .null {
            let mode = fix["mode"]?.number == 3 ? "3D" : "2D"
            lines.append("fix       \(mode) \(num(fix["lat"], 6)), \(num(fix["lon"], 6)) ±\(num(fix["eph"])) m, "
                         + "\(num(fix["speed"], 1)) m/s, course \(fix["course_text"]?.string ?? "unknown"), "
                         + "\(localTime(fix["time"]?.string)) (\(num(fix["age_s"])) s ago)")
        } else {
            lines.append("fix       none")
        }
        if let trip = r["trip"] {
            lines.append("trip      \(trip["state"]?.string ?? "?") since \(localTime(trip["started_at"]?.string)): "
                         + "\(num(trip["traveled_m"])) m traveled, \(num(trip["straight_line_m"])) m in a straight line")
        }
        if let steps = r["steps"], steps != .null { lines.append("steps     " + Self.steps(steps)) }
        if let m = r["motion"] {
            var line = "motion    \(m["state"]?.string ?? "?")"
            if let since = m["since"]?.string { line += " since \(localTime(since))" }
            if let t = r["current_trip"], t != .null {
                line += "; trip \(num(t["id"])) from \(place(t["from"])) since \(localTime(t["started_at"]?.string)), \(num(t["traveled_m"])) m"
            }
            lines.append(line)
        }
        if let g = r["guard"] {
            var line = "guard     \(g["state"]?.string ?? "?")"
            if let at = g["armed_at"] { line += " around \(num(at["lat"], 6)),\(num(at["lon"], 6)) since \(localTime(g["since"]?.string))" }
            lines.append(line)
        }
        let fences = r["fences"]?.array ?? []
        let inside = fences.filter { $0["state"]?.string == "inside" }.compactMap { $0["id"]?.string }
        lines.append("fences    \(fences.count) loaded; inside: \(inside.isEmpty ? "none" : inside.joined(separator: ", "))")
        if let c = r["counters"] {
            var rejected = ""
            if case .object(let o)? = c["fixes_rejected"], !o.isEmpty {
                rejected = " (" + o.keys.sorted().map { "\($0) \(num(o[$0]))" }.joined(separator: ", ") + ")"
            }
            lines.append("fixes     \(num(c["fixes_total"])) seen, \(num(c["fixes_accepted"])) accepted\(rejected)")
        }
        lines.append("daemon    gpstrackd \(r["version"]?.string ?? "?"), up \(num(r["uptime_s"])) s, event seq \(num(r["seq"]))")
        return lines.joined(separator: "\n")
    }

    /// "Home" (the fences at a place), else its coordinates.
    static func place(_ p: JSONValue?) -> String {
        let names = p?["fences"]?.array?.compactMap(\.string) ?? []
        if !names.isEmpty { return names.joined(separator: "/") }
        return "\(num(p?["lat"], 5)),\(num(p?["lon"], 5))"
    }

    /// A table of rows, columns padded to their widest cell (the last one not).
    static func table(_ rows: [[String]]) -> String {
        guard let width = rows.first?.count else { return "" }
        let widths = (0..<width).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in i == width - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// `gpstrackctl trips` (automatic trips).
    static func autoTrips(_ r: JSONValue) -> String {
        var rows = [["ID", "STATE", "START", "END", "FROM → TO", "DISTANCE", "STRAIGHT", "DURATION", "MOVING", "MAX", "AVG"]]
        for t in r["trips"]?.array ?? [] {
            let to = t["to"].map(place) ?? "…"
            rows.append([num(t["id"]), t["state"]?.string ?? "", localTime(t["started_at"]?.string), localTime(t["ended_at"]?.string),
                         "\(place(t["from"])) → \(to)", "\(num(t["traveled_m"])) m",
                         t["straight_line_m"] == nil ? "-" : "\(num(t["straight_line_m"])) m", "\(num(t["duration_s"])) s",
                         t["moving_s"] == nil ? "-" : "\(num(t["moving_s"])) s",
                         t["max_speed_mps"].map { "\(num(.number(($0.number ?? 0) * 3.6))) km/h" } ?? "-",
                         t["avg_speed_mps"].map { "\(num(.number(($0.number ?? 0) * 3.6))) km/h" } ?? "-"])
        }
        return rows.count == 1 ? "no trips yet" : table(rows)
    }

    /// `gpstrackctl stops`.
    static func stops(_ r: JSONValue) -> String {
        var rows = [["PLACE", "FENCES", "ARRIVAL", "DEPARTURE", "DURATION"]]
        for s in r["stops"]?.array ?? [] {
            let at = s["at"]
            rows.append(["\(num(at?["lat"], 5)),\(num(at?["lon"], 5))",
                         (at?["fences"]?.array?.compactMap(\.string) ?? []).joined(separator: ", ").isEmpty ? "-"
                            : (at?["fences"]?.array?.compactMap(\.string) ?? []).joined(separator: ", "),
                         localTime(s["arrival"]?.string), s["departure"]?.string == nil ? "(here)" : localTime(s["departure"]?.string),
                         "\(num(s["duration_s"])) s"])
        }
        return rows.count == 1 ? "no stops yet" : table(rows)
    }

    static func fences(_ r: JSONValue) -> String {
        let fences = r["fences"]?.array ?? []
        if fences.isEmpty { return "no fences loaded" }
        var rows = [["ID", "NAME", "KIND", "STATE", "SINCE", "LAST EVENT"]]
        for f in fences {
            rows.append([f["id"]?.string ?? "", f["name"]?.string ?? "", f["kind"]?.string ?? "", f["state"]?.string ?? "",
                         localTime(f["since"]?.string), f["last_event"]?.string ?? "-"])
        }
        let widths = (0..<6).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in i == 5 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func event(_ e: JSONValue) -> String {
        let name = e["event"]?.string ?? "?"
        var text = "\(localTime((e["time"] ?? e["end"])?.string))  \(name)"
        if let trip = e["trip"]?.number { text += " \(Int(trip))" }
        if name == "trip_end" {
            text += ": \(place(e["from"])) → \(place(e["to"])), \(num(e["traveled_m"])) m in \(num(e["duration_s"])) s"
                + " (from \(localTime(e["start"]?.string)))"
        }
        if let d = e["distance_m"]?.number { text += ", \(num(.number(d))) m" }
        if let limit = e["limit_kmh"]?.number { text += ", limit \(num(.number(limit))) km/h" }
        if let v = (e["max_speed_mps"] ?? e["speed_mps"])?.number, name.hasPrefix("overspeed") { text += ", \(num(.number(v * 3.6))) km/h" }
        if let fence = e["fence"]?.string {
            text += " \(fence)"
            if let n = e["name"]?.string { text += " (\(n))" }
        }
        if let s = e["state"]?.string { text += " \(s)" }
        if e["crossed"] == .bool(true) { text += " (crossed between fixes)" }
        if name == "fences_determined" {
            text += ": " + ["inside", "outside", "unknown"].map { "\(num(e[$0])) \($0)" }.joined(separator: ", ")
        }
        if let lat = e["lat"]?.number, let lon = e["lon"]?.number { text += " at \(num(.number(lat), 6)),\(num(.number(lon), 6))" }
        if let m = e["message"]?.string { text += ": \(m)" }
        if let seq = e["seq"]?.number { text += "  #\(Int(seq))" }
        return text
    }
}
