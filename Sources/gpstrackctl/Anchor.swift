import GPSTrackExport
import GPSTrackProtocol

/// `gpstrackctl anchor [drop [--radius M] [--bearing DEG --distance M] [--rode M --depth M] | raise | ack]`.
enum AnchorCommandLine {
    /// The options `anchor drop` takes.
    static let options: Set<String> = ["radius", "bearing", "distance", "rode", "depth"]

    /// The request for the command line; a bad one exits with the usage error.
    static func request(_ args: ArgumentParser.Result) -> ControlRequest {
        let action = args.positionals.dropFirst().first
        guard args.positionals.count <= 2 else { fail(.usage, "gpstrackctl: anchor takes one action\n\(usage)") }
        let given = Set(args.options.keys).subtracting(["socket"])
        if action != "drop", let key = given.sorted().first {
            fail(.usage, "gpstrackctl: --\(key) goes with anchor drop\n\(usage)")
        }
        func number(_ key: String) -> Double? {
            guard let v = args.options[key] else { return nil }
            guard let n = Double(v), n.isFinite else {
                fail(.usage, "gpstrackctl: --\(key) wants a number, not '\(v)'")
            }
            return n
        }
        switch action {
        case nil: return .anchor(.status)
        case "raise": return .anchor(.raise)
        case "ack": return .anchor(.ack)
        case "drop":
            if let key = given.subtracting(options).sorted().first {
                fail(.usage, "gpstrackctl: --\(key) does not go with anchor drop\n\(usage)")
            }
            let d = AnchorCommand.Drop(
                radiusM: number("radius"), bearing: number("bearing"), distanceM: number("distance"),
                rodeM: number("rode"), depthM: number("depth"))
            guard (d.bearing == nil) == (d.distanceM == nil) else {
                fail(.usage, "gpstrackctl: --bearing and --distance go together")
            }
            guard (d.rodeM == nil) == (d.depthM == nil) else {
                fail(.usage, "gpstrackctl: --rode and --depth go together")
            }
            guard d.radiusM != nil || d.rodeM != nil else {
                fail(.usage, "gpstrackctl: anchor drop needs --radius M, or --rode M --depth M")
            }
            return .anchor(.drop(d))
        default:
            fail(.usage, "gpstrackctl: anchor wants drop, raise or ack, not '\(action!)'\n\(usage)")
        }
    }

    /// The watch for people.
    static func text(_ r: AnchorReply) -> String {
        guard let a = r.anchor else { return "anchor: up" }
        var lines = [
            "anchor: down at \(Formatter.num(a.lat, 6)),\(Formatter.num(a.lon, 6)), radius \(Formatter.num(a.radiusM)) m, "
                + "since \(Formatter.localTime(a.since))"
        ]
        if let d = a.distanceM {
            lines.append("boat: \(Formatter.num(d)) m from it, bearing \(Formatter.num(a.bearing ?? 0))°")
        }
        lines.append(
            "greatest distance: \(Formatter.num(a.maxDistanceM)) m"
                + (a.maxAt.map { " (\(Formatter.localTime($0)))" } ?? ""))
        var alarm = "alarm: \(a.alarm)"
        if let x = a.drag {
            alarm += "; dragging since \(Formatter.localTime(x.raised))\(x.acknowledged ? ", acknowledged" : "")"
        }
        if let x = a.noPosition {
            alarm += "; no position since \(Formatter.localTime(x.raised))\(x.acknowledged ? ", acknowledged" : "")"
        }
        lines.append(alarm)
        return lines.joined(separator: "\n")
    }
}

/// `gpstrackctl export --anchor --format gpx|geojson|kml|csv`: the anchor track, alone.
enum AnchorExportLine {
    /// The formats that carry the anchor track (the map page does not draw it yet).
    static let formats: [ExportFormat] = [.gpx, .geojson, .kml, .csv]

    /// Checks the command line and runs the export (exits).
    static func run(_ args: ArgumentParser.Result, json: Bool) -> Never {
        if let key = ["trip", "since", "until", "day"].first(where: { args.options[$0] != nil }) {
            fail(.usage, "gpstrackctl: --anchor exports the anchor track alone; --\(key) does not go with it")
        }
        if args.flags.contains("gpx") || args.flags.contains("fences") || json {
            fail(.usage, "gpstrackctl: --anchor goes with --format gpx, geojson, kml or csv alone")
        }
        guard let name = args.options["format"], let format = ExportFormat(rawValue: name), formats.contains(format)
        else { fail(.usage, "gpstrackctl: export --anchor wants --format gpx, geojson, kml or csv") }
        ExportCommand.run(
            ExportScope(trip: nil, since: nil, until: nil, anchor: true), format: format,
            title: "gpstrackd anchor track", fences: false, tiles: .none,
            path: args.options["socket"] ?? ControlRequest.defaultSocketPath)
    }
}
