import GPSTrackClient
import GPSTrackExport
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackVocabulary

#if canImport(Glibc)
import Glibc
#endif

let usage = """
    usage: gpstrackctl [--socket PATH] [--json] COMMAND
           gpstrackctl -h | --help | --version
      status          the daemon's fix, trip, fences and counters
      metrics         the same as Prometheus text (the series of metrics_file)
      fences          every fence with its state and last event
      state ID        one fence's state: inside, outside or unknown
      start           count a new trip from the next fix
      stop            freeze the trip's figures
      reset           zero the trip's figures
      reload          reload the fences file
      watch           print every event as it happens (until interrupted)
      trips           the trips: id, start, end, from → to, distance, duration, speeds
      stops           the stops: place, fences, arrival, departure, duration
      guard on|off|ack  arm the parked guard at stops, disarm it, acknowledge its breach
      sos ack         acknowledge the panic button's alarm
      anchor [drop [--radius M] [--bearing DEG --distance M] [--rode M --depth M] | raise | ack]
                      the anchor watch: its status, drop it at the boat's averaged position
                      (or ahead of it), raise it, acknowledge its alarm
      events [--since TIME] [--fence ID]
                      stored events (TIME as 2026-03-14T08:00:00Z)
      steps [--since TIME]
                      steps, walking distance and cadence (since TIME, else all stored)
      export --format gpx|geojson|kml|csv|html|svg [--trip ID | --since TIME [--until TIME] | --day YYYY-MM-DD|today|yesterday] [--fences] [--tiles URL|none]
                      the track, trips, stops and events, to standard output (html: a map page)
      export --gpx [--trip ID | --since TIME [--until TIME]]
                      GPX 1.1 of the stored track points alone (the earlier form)
      export --anchor --format gpx|geojson|kml|csv
                      the anchor watch's track since the drop and the anchor (the swing)
    The socket defaults to \(ControlRequest.defaultSocketPath). Exit codes: 0 done, 1 error
    response, 64 usage, 66 nothing to export, 69 daemon not reachable, 74 output not written,
    76 a reply gpstrackctl cannot read.
    """

func write(_ fd: Int32, _ s: String) { writeAll(fd, s + "\n") }

func out(_ s: String) { write(STDOUT_FILENO, s) }

func fail(_ code: ExitCode, _ message: String) -> Never {
    write(STDERR_FILENO, message)
    exit(code.rawValue)
}

let arguments = Array(CommandLine.arguments.dropFirst())
// -h, --help and --version answer and exit 0, as every Unix tool does.
if arguments.first == "-h" || arguments.first == "--help" {
    out(usage)
    exit(0)
}
if arguments.first == "--version" {
    out("gpstrackctl \(ControlRequest.version)")
    exit(0)
}
let parser = ArgumentParser(
    valued: AnchorCommandLine.options.union(["socket", "since", "until", "fence", "trip", "format", "day", "tiles"]),
    boolean: ["json", "help", "gpx", "fences", "anchor"])
let args: ArgumentParser.Result
do { args = try parser.parse(arguments) } catch { fail(.usage, "gpstrackctl: \(error.message)\n\(usage)") }
if args.flags.contains("help") {
    out(usage)
    exit(0)
}
guard let command = args.positionals.first else { fail(.usage, "gpstrackctl: missing COMMAND\n\(usage)") }
let json = args.flags.contains("json")
/// The request, built as the shared type the daemon parses: a field renamed there fails here.
let request: ControlRequest
func noArguments() {
    guard args.positionals.count == 1 else { fail(.usage, "gpstrackctl: \(command) takes no argument\n\(usage)") }
    let allowed: [String: Set<String>] = [
        "events": ["since", "fence"], "steps": ["since"],
        "export": ["since", "until", "trip", "gpx", "format", "day", "fences", "anchor", "tiles"],
    ]
    for key in Set(args.options.keys).union(args.flags).subtracting(["socket", "json", "help"])
    where !(allowed[command] ?? []).contains(key) {
        fail(.usage, "gpstrackctl: --\(key) does not go with \(command)\n\(usage)")
    }
}
func time(_ key: String) -> Double? {
    guard let v = args.options[key] else { return nil }
    guard let t = Timestamp.parse(v) else {
        fail(.usage, "gpstrackctl: --\(key) wants a UTC time like 2026-03-14T08:00:00Z")
    }
    return t
}
switch command {
case "state":
    guard args.positionals.count == 2 else { fail(.usage, "gpstrackctl: state needs a fence ID\n\(usage)") }
    request = .state(fence: args.positionals[1])
case "guard":
    guard args.positionals.count == 2, ["on", "off", "ack"].contains(args.positionals[1]) else {
        fail(.usage, "gpstrackctl: guard needs on, off or ack\n\(usage)")
    }
    request = args.positionals[1] == "ack" ? .guardAck : .guard(args.positionals[1] == "on")
case "sos":
    guard args.positionals.count == 2, args.positionals[1] == "ack" else {
        fail(.usage, "gpstrackctl: sos needs ack\n\(usage)")
    }
    request = .sosAck
case "anchor":
    request = AnchorCommandLine.request(args)
case "status", "metrics":
    noArguments()
    request = .status
case "fences":
    noArguments()
    request = .fences
case "start":
    noArguments()
    request = .start
case "stop":
    noArguments()
    request = .stop
case "reset":
    noArguments()
    request = .reset
case "reload":
    noArguments()
    request = .reload
case "watch":
    noArguments()
    request = .watch
case "trips":
    noArguments()
    request = .trips
case "stops":
    noArguments()
    request = .stops
case "events":
    noArguments()
    request = .events(since: time("since"), fence: args.options["fence"])
case "steps":
    noArguments()
    request = .steps(since: time("since"))
case "export":
    noArguments()
    var since = time("since")
    var until = time("until")
    guard args.flags.contains("gpx") != (args.options["format"] != nil) else {
        fail(.usage, "gpstrackctl: export needs --format (or the earlier --gpx), one of them\n\(usage)")
    }
    if args.flags.contains("anchor") { AnchorExportLine.run(args, json: json) }
    var trip: Int64?
    if let t = args.options["trip"] {
        guard let id = Int(t), id > 0 else { fail(.usage, "gpstrackctl: --trip wants a trip id") }
        guard args.options["since"] == nil, args.options["until"] == nil, args.options["day"] == nil else {
            fail(.usage, "gpstrackctl: --trip, --since/--until or --day, one of them")
        }
        trip = Int64(id)
    }
    if let name = args.options["format"] {
        guard let format = ExportFormat(rawValue: name) else {
            fail(.usage, "gpstrackctl: --format wants gpx, geojson, kml, csv, html or svg, not '\(name)'")
        }
        var title = trip.map { "gpstrackd trip \($0)" } ?? "gpstrackd track"
        if let d = args.options["day"].map({ ExportCommand.named($0) }) {
            guard since == nil, until == nil else { fail(.usage, "gpstrackctl: --day or --since/--until, not both") }
            guard let (a, b) = ExportCommand.day(d) else {
                fail(.usage, "gpstrackctl: --day wants a date like 2026-03-14, today or yesterday")
            }
            // The last millisecond of the day: the daemon's until is inclusive.
            (since, until) = (a, b - 0.001)
            title = "gpstrackd \(d)"
        }
        if json { fail(.usage, "gpstrackctl: export --format writes its format; --json does not go with it") }
        let fences = args.flags.contains("fences")
        if fences, format != .geojson { fail(.usage, "gpstrackctl: --fences goes with --format geojson") }
        var tiles = MapPage.TilesChoice.daemon
        if let t = args.options["tiles"] {
            guard format == .html else { fail(.usage, "gpstrackctl: --tiles goes with --format html") }
            switch MapTiles.parse(t) {
            case .failure(let r): fail(.usage, "gpstrackctl: --tiles wants \(r.expected), not '\(t)'")
            case .success(let parsed): tiles = parsed.map { .url($0) } ?? .none
            }
        }
        ExportCommand.run(
            ExportScope(trip: trip, since: since, until: until), format: format, title: title, fences: fences,
            tiles: tiles, path: args.options["socket"] ?? ControlRequest.defaultSocketPath)
    }
    guard args.options["day"] == nil else { fail(.usage, "gpstrackctl: --day goes with --format") }
    guard !args.flags.contains("fences") else { fail(.usage, "gpstrackctl: --fences goes with --format geojson") }
    guard args.options["tiles"] == nil else { fail(.usage, "gpstrackctl: --tiles goes with --format html") }
    request = .export(trip: trip, since: since, until: until)
default:
    fail(.usage, "gpstrackctl: unknown command '\(command)'\n\(usage)")
}

let path = args.options["socket"] ?? ControlRequest.defaultSocketPath
let client: ControlClient
do { client = try ControlClient(path: path) } catch {
    var hint = "is gpstrackd running? (systemctl start gpstrackd)"
    if error.code == EACCES { hint = "permission denied: the socket is for root and the gpstrack group" }
    fail(
        .unavailable,
        "gpstrackctl: cannot reach gpstrackd at \(path): \(String(cString: strerror(error.code))); \(hint)")
}
guard client.send(request.line) else { fail(.unavailable, "gpstrackctl: gpstrackd at \(path) hung up") }
guard let first = client.readLine() else {
    fail(.unavailable, "gpstrackctl: gpstrackd at \(path) hung up without answering")
}
let response = (try? JSONValue.parse(Array(first.utf8))) ?? .null
guard response["ok"] == .bool(true) else {
    if json {
        out(first)
    } else {
        write(
            STDERR_FILENO, "gpstrackctl: \((try? ReplyDecoder.decode(ErrorReply.self, from: response))?.error ?? first)"
        )
    }
    exit(ExitCode.failure.rawValue)
}
/// The reply read as the type the daemon encoded it from; a reply that does not read is the
/// daemon's fault (another version?), said so, never a crash.
func reply<T: Decodable>(_ type: T.Type) -> T {
    do { return try ReplyDecoder.decode(type, from: response) } catch {
        fail(
            .protocolError,
            "gpstrackctl: gpstrackd at \(path) sent a \(command) reply this gpstrackctl cannot read: \(error)")
    }
}
switch command {
case "status":
    let r = reply(StatusReply.self)
    out(json ? first : Formatter.status(r))
case "metrics":
    // Prometheus text is its own format: --json changes nothing.
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let text = Metrics.render(reply(StatusReply.self), now: Double(now.tv_sec))
    out(String(text.dropLast()))
case "fences":
    let r = reply(FencesReply.self)
    out(json ? first : Formatter.fences(r))
case "state":
    let r = reply(StateReply.self)
    out(json ? first : "\(args.positionals[1]): \(r.state) since \(Formatter.localTime(r.since))")
case "trips" where (response["trips"]?.array ?? []).contains { $0["from"] != nil }:
    let r = reply(AutoTripsReply.self)
    out(json ? first : Formatter.autoTrips(r))
case "trips":
    let r = reply(StoredTripsReply.self)
    if json { out(first) } else { for line in Formatter.storedTrips(r) { out(line) } }
case "stops":
    let r = reply(StopsReply.self)
    out(json ? first : Formatter.stops(r))
case "anchor":
    out(json ? first : AnchorCommandLine.text(reply(AnchorReply.self)))
case "guard":
    let r = reply(GuardReply.self)
    out(json ? first : "guard: \(r.guard.state)" + (r.guard.alarm.map { ", breach \($0)" } ?? ""))
case "sos":
    out(json ? first : "sos: \(reply(SOSReply.self).sos)")
case "events":
    let r = reply(EventsReply.self)
    if json { out(first) } else { for e in r.events { out(Formatter.event(e)) } }
case "steps":
    let r = reply(StepsReply.self)
    if json {
        out(first)
    } else {
        let since = r.since.map { " since \(Formatter.localTime($0))" } ?? ""
        out(
            "\(Formatter.num(r.steps)) steps\(since), \(Formatter.num(r.distanceM)) m walked, "
                + "\(Formatter.num(r.cadenceSpm)) steps/min while walking")
        if let p = r.pedometer { out("now: " + Formatter.steps(p)) }
    }
case "export":
    let r = reply(ExportReply.self)
    if json {
        out(first)
    } else {
        writeAll(STDOUT_FILENO, r.gpx)
    }
case "watch":
    _ = reply(WatchReply.self)
    out(json ? first : "watching gpstrackd at \(path); ^C to stop")
    while let line = client.readLine() {
        // Each line read as the type the daemon wrote it from, like a reply: one that does not
        // read ends the watch with the field named.
        let event: WatchLine
        do { event = try ReplyDecoder.decode(WatchLine.self, line: line) } catch {
            fail(
                .protocolError,
                "gpstrackctl: gpstrackd at \(path) sent a watch line this gpstrackctl cannot read: \(error)")
        }
        out(json ? line : Formatter.event(event))
    }
case "reload":
    _ = reply(ReloadReply.self)
    out(json ? first : "reload: done")
default:
    let r = reply(TripReply.self)
    out(json ? first : "\(command): done (trip \(r.trip.state), \(Formatter.num(r.trip.traveledM)) m)")
}
exit(0)
