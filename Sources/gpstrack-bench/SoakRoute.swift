import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import GPSTrackSim

#if canImport(Glibc)
import Glibc
#endif

/// The soak's route (`make soak`): `laps` laps of `lapSeconds` fix seconds from a quiet point
/// outside every fence, where the vehicle is parked when the soak injects its faults, east
/// through circle A, into circle B (a stop long enough for a dwell), and back through A. Each
/// lap has 7 transitions: A enter, A exit, B enter, B dwell, B exit, A enter, A exit.
enum SoakRoute {
    static let origin = Coordinate(latitude: 52.40, longitude: 13.10)
    static let speed = 20.0
    static let legM = 1000.0
    static let stopAtB = 45

    /// Writes DIR/route.nmea (one epoch's sentences per block, blocks separated by an empty
    /// line), DIR/route.gpsd.json (the same fixes as gpsd JSON, for `replay`),
    /// DIR/fences.geojson and DIR/fences-bad.geojson.
    static func write(laps: Int, lapSeconds: Int, directory: String) -> Bool {
        let legSteps = Int(legM / speed)
        let park = lapSeconds - 2 * legSteps - stopAtB
        guard laps > 0, park >= 100 else { return false }
        var steps: [Scenario.Step] = []
        for _ in 0..<laps {
            steps += Array(repeating: .init(speed: 0, heading: 90), count: park)
            steps += Array(repeating: .init(speed: speed, heading: 90), count: legSteps)
            steps += Array(repeating: .init(speed: 0, heading: 270), count: stopAtB)
            steps += Array(repeating: .init(speed: speed, heading: 270), count: legSteps)
        }
        var model = ReceiverModel()
        model.wanderSigmaM = 0.5
        model.whiteSigmaM = 0.3
        model.noFixProbability = 0
        model.honestJumpProbability = 0
        model.lyingJumpProbability = 0
        let trace = Simulator.run(Scenario(name: "soak", start: origin, steps: steps), model: model, seed: 15)
        let a = Geodesic.destination(from: origin, azimuth: 90, distance: 500)
        let b = Geodesic.destination(from: origin, azimuth: 90, distance: legM)
        let fences = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","id":"A","properties":{"name":"Crossing","radius":100},
              "geometry":{"type":"Point","coordinates":[\(a.longitude),\(a.latitude)]}},
             {"type":"Feature","id":"B","properties":{"name":"Depot","radius":80,"dwell_s":30},
              "geometry":{"type":"Point","coordinates":[\(b.longitude),\(b.latitude)]}}]}
            """
        let nmea = trace.fixes.map { NMEAWriter.sentences($0).joined(separator: "\n") + "\n" }.joined(separator: "\n")
        let json = (GPSDLogWriter.header + trace.fixes.map(GPSDLogWriter.tpv)).joined(separator: "\n") + "\n"
        return save(directory + "/route.nmea", nmea) && save(directory + "/route.gpsd.json", json)
            && save(directory + "/fences.geojson", fences + "\n")
            && save(directory + "/fences-bad.geojson", String(fences.prefix(fences.count / 2)))
    }

    private static func save(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let writer = OutputWriter(fd: fd)
        do {
            try writer.writeLine(text)
            try writer.flush()
        } catch { return false }
        return true
    }
}
