import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The seeded day the export tests read back: a 3 km drive from home to the shop, a stop there,
/// a 800 m walk, parked again 10 min, played once through gpsfake into a real daemon whose store each
/// test then opens with a daemon of its own (no receiver: the history answers from SQLite).
struct ExportDay {
    let stateDirectory: String
    let fences: String
    /// The `trips` reply of the daemon that recorded the day.
    let trips: [[String: Any]]
    let stops: [[String: Any]]
    let truth: [Coordinate]
    let dayText: String
    /// The HDOP and satellites used the feed gave each second's fix (`FixQuality`).
    let quality: [Int: (hdop: Double, sat: Int)]

    nonisolated(unsafe) private static var cached: Result<ExportDay, any Error>?
    private static let lock = NSLock()

    /// The day, played on first use (a minute or so), then shared by the suite's tests.
    static func shared() throws -> ExportDay {
        lock.lock()
        defer { lock.unlock() }
        if cached == nil { cached = Result { try play() } }
        return try cached!.get()
    }

    private static func play() throws -> ExportDay {
        try LiveHarness.ensureJournald()
        var day = DayScenario.make(
            seed: 29, firstDriveM: 3000, walkM: 800, secondDriveM: 1000,
            shortPark: 420, longPark: 600, lastPark: 300)
        // Two trips: the day up to 10 min after the walk, parked under a clear sky (the day's
        // poor-sky wander would hold the walk's end back beyond the cut).
        let cut = day.trips[1].end + 600
        day.scenario.steps = day.scenario.steps.prefix(cut).map {
            var s = $0
            s.wanderScale = min(s.wanderScale, 1)
            return s
        }
        day.trips = Array(day.trips.prefix(2))
        let trace = Simulator.run(day.scenario, seed: 29)
        let home = trace.truth[0]
        let shop = trace.truth[day.trips[0].end]
        let fences = try ExecutableRunner.temporaryFile(
            "export-day.geojson",
            contents: """
                {"type":"FeatureCollection","features":[
                 {"type":"Feature","id":"home","properties":{"name":"Home","radius":80},
                  "geometry":{"type":"Point","coordinates":[\(home.longitude),\(home.latitude)]}},
                 {"type":"Feature","id":"shop","properties":{"name":"Shop","radius":60},
                  "geometry":{"type":"Point","coordinates":[\(shop.longitude),\(shop.latitude)]}}]}
                """)
        let fixes = FixQuality.qualified(trace.fixes)
        let log = try LiveHarness.nmeaFile("export-day.nmea", fixes: fixes, padding: 400)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", fences])
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        let client = try SocketClient(path: daemon.socketPath)
        let trips = try #require(client.request(#"{"cmd":"trips"}"#)?["trips"] as? [[String: Any]])
        let stops = try #require(client.request(#"{"cmd":"stops"}"#)?["stops"] as? [[String: Any]])
        #expect(daemon.stop() == 0)
        let first = try #require(trace.fixes.first?.time)
        return ExportDay(
            stateDirectory: daemon.stateDirectory, fences: fences, trips: trips, stops: stops,
            truth: Array(trace.truth.prefix(cut)), dayText: String(Timestamp.iso8601(first).prefix(10)),
            quality: FixQuality.byTime(fixes))
    }

    /// A daemon over the day's store, with no receiver to read (its gpsd port is closed).
    func daemon() throws -> LiveHarness.DaemonProcess {
        let d = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())", "--fences", fences],
            stateDirectory: stateDirectory)
        try LiveHarness.waitFor("the control socket", timeout: 30) {
            (try? SocketClient(path: d.socketPath))?.request(#"{"cmd":"status"}"#) != nil
        }
        return d
    }

    /// `gpstrackctl export --format FORMAT ARGS` against `daemon`, its output in a file.
    static func export(
        _ daemon: LiveHarness.DaemonProcess, _ format: String, _ args: [String] = [],
        file: String
    ) throws -> (status: Int32, path: String, stdout: String, stderr: String) {
        let r = try ControlSocketTests.run(["--socket", daemon.socketPath, "export", "--format", format] + args)
        let path = try ExecutableRunner.temporaryFile(file, contents: r.stdout)
        return (r.status, path, r.stdout, r.stderr)
    }

    /// Runs a tool, its standard output and status.
    static func tool(_ path: String, _ args: [String], stdin: Data? = nil) throws -> (
        status: Int32, out: String, err: String
    ) {
        let r = try ExecutableRunner.run(args, stdin: stdin, executable: path)
        return (r.status, r.stdout, r.stderr)
    }
}
