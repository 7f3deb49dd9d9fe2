import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

/// The exact text of the lines written as Codable values since issue 21 (one JSON writer): the
/// replay summaries, the OsmAnd JSON body and OwnTracks `steps`. Each expected line is written
/// by hand from its documented form (gpstrackd(8), gpstrackd.conf(5), the Traccar Client's
/// body): keys in that order, `12.0` for a whole figure, `null` or nothing where documented.
@Suite struct PayloadLineTests {
    /// 2026-01-01T00:00:00Z.
    static let t0 = 1_767_225_600.0

    @Test func anEmptyReplaySummaryHasEveryFieldInTheDocumentedOrder() {
        let session = TrackingSession(config: TrackerConfig())
        #expect(
            Replay.summary(session, tpvCount: 0, malformed: 0)
                == #"{"summary":{"traveled_m":0.0,"straight_line_m":0.0,"fixes_total":0,"fixes_accepted":0,"#
                + #""fixes_delivered":0,"fixes_rejected":{},"tpv_total":0,"lines_malformed":0,"trips":0,"#
                + #""start":null,"end":null,"course":"unknown"}}"#)
    }

    /// Manual trips leave out `trips`; fences add `events`; rejections are by name, sorted.
    @Test func aManualReplayWithFencesNamesItsRejectionsAndItsStart() throws {
        var config = TrackerConfig()
        config.tripMode = .manual
        let far = Fence(
            index: 0, id: "far", shape: .circle(center: Coordinate(latitude: 48.0, longitude: 2.0), radiusM: 50))
        var session = TrackingSession(config: config, fences: try FenceIndex(fences: [far], file: "f.geojson"))
        let good = Fix(mode: 3, time: Self.t0, latitude: 52.5, longitude: 13.25, eph: 5)
        // In this order: no fix, no time, then the good fix's time again.
        for f in [
            good, Fix(mode: 1, time: Self.t0 + 1), Fix(mode: 3, time: nil, latitude: 52.5, longitude: 13.25), good,
        ] {
            _ = session.ingest(f)
        }
        _ = session.settle()
        #expect(
            Replay.summary(session, tpvCount: 7, malformed: 2)
                == #"{"summary":{"traveled_m":0.0,"straight_line_m":0.0,"fixes_total":4,"fixes_accepted":1,"#
                + #""fixes_delivered":1,"fixes_rejected":{"duplicate":1,"no_fix":1,"no_time":1},"tpv_total":7,"#
                + #""lines_malformed":2,"start":{"lat":52.5,"lon":13.25,"time":"2026-01-01T00:00:00.000Z"},"#
                + #""end":{"lat":52.5,"lon":13.25,"time":"2026-01-01T00:00:00.000Z"},"course":"unknown","#
                + #""events":{"enter":0,"exit":0,"dwell":0}}}"#)
    }

    @Test func theAccelSummaryIsTheDocumentedLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("payload-accel-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Still for 2.5 s: no step, so no cadence (null); 2.5 s of samples, none walked.
        let path = dir + "/still.csv"
        let csv = "t,x,y,z\n" + (0...10).map { "\(Double($0) * 0.25),0,0,9.81\n" }.joined() + "oops\n"
        try csv.write(toFile: path, atomically: false, encoding: .utf8)
        let out = dir + "/out"
        let fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let code = try ReplayAccel(arguments: [path]).run(out: OutputWriter(fd: fd), err: OutputWriter(fd: devNull))
        close(fd)
        #expect(code == .ok)
        #expect(
            try String(contentsOfFile: out, encoding: .utf8)
                == #"{"summary":{"steps":0,"cadence_spm":null,"duration_s":2.5,"walking_s":0.0,"samples":11,"#
                + #""lines_malformed":1}}"# + "\n")
    }

    static let extras = OsmAnd.Extras(
        deviceID: "box \"25\"", moving: true, odometerM: 1234.56, alarm: "tow", assumedErrorM: 17)

    /// Every field: speed to 3 decimals, heading and altitude to 1, hdop to 2, the alarm twice.
    @Test func theOsmAndJSONBodyWithEveryField() {
        var fix = Fix(
            mode: 3, time: Self.t0, latitude: 52.5, longitude: 13.25, altitude: 34.06, eph: 4.4, speed: 12.34567,
            track: 90.04)
        fix.hdop = 1.234
        fix.satellitesUsed = 9
        let body = OsmAnd.json(time: Self.t0, at: fix.coordinate, fix: fix, Self.extras)
        #expect(
            body
                == #"{"device_id":"box \"25\"","location":{"timestamp":"2026-01-01T00:00:00.000Z","#
                + #""coords":{"latitude":52.5,"longitude":13.25,"accuracy":4,"speed":12.346,"heading":90.0,"#
                + #""altitude":34.1},"is_moving":true,"odometer":1234.6,"event":"tow","#
                + #""extras":{"hdop":1.23,"sat":9,"alarm":"tow"}}}"#)
    }

    /// Without a fix, motion or alarm: no speed, heading, altitude, `is_moving`, `event` or
    /// `extras` at all (never null), the assumed error as the accuracy.
    @Test func theOsmAndJSONBodyLeavesOutWhatIsUnknown() {
        var x = Self.extras
        x.moving = nil
        x.alarm = nil
        x.odometerM = 0
        let body = OsmAnd.json(time: Self.t0, at: Coordinate(latitude: -33.5, longitude: 151), fix: nil, x)
        #expect(
            body
                == #"{"device_id":"box \"25\"","location":{"timestamp":"2026-01-01T00:00:00.000Z","#
                + #""coords":{"latitude":-33.5,"longitude":151.0,"accuracy":17},"odometer":0.0}}"#)
    }

    /// OwnTracks `steps` (gpstrackd(8), MQTT): `tst` is the message's own time, so only its
    /// form is pinned; the rest in the documented order, whole numbers.
    @Test func theOwnTracksStepsMessage() throws {
        let line = StepFigures.owntracks(steps: 1234, distanceM: 987.6, from: Self.t0 + 0.9, to: Self.t0 + 600)
        // Written now: after 2026-01-01, whole seconds.
        let tst = try #require(line.firstMatch(of: /"tst":([0-9]+),/))
        #expect(try #require(Int(tst.1)) >= Int(Self.t0))
        #expect(
            line.replacing(/"tst":[0-9]+,/, with: #""tst":T,"#)
                == #"{"_type":"steps","tst":T,"steps":1234,"distance":988,"floorsup":0,"floorsdown":0,"#
                + #""from":1767225600,"to":1767226200}"#)
    }
}
