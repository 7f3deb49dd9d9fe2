import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// `gpstrackctl export --anchor` through the live daemon (gpsd fed by gpsfake): the swing
/// track read back by GDAL's ogrinfo, position by position against the fixes fed.
@Suite(.serialized, .needsLiveParts, .needs(.tool("/usr/bin/ogrinfo", package: "gdal-bin")))
struct AnchorExportLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func theSwingTrackExportsAsGeoJSONWithTheAnchorAndNothingWithTheAnchorUp() throws {
        // Swinging on the rode: a slow circle of about 11 m radius, 2 degrees a second.
        let steps = (0..<600).map { Scenario.Step(speed: 0.4, heading: Double($0 * 2 % 360)) }
        let trace = Simulator.run(Scenario(name: "swing", start: LiveDaemonTests.base, steps: steps), seed: 2729)
        let fed = trace.fixes.filter { $0.mode != 2 }
        let last = try #require(fed.last?.time)
        let log = try LiveHarness.nmeaFile("anchor-swing.nmea", fixes: trace.fixes, padding: 200)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.01)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)"])
        try daemon.waitFor("fix_acquired", timeout: 120)
        let up = try ExportDay.export(daemon, "geojson", ["--anchor"], file: "anchor-up.geojson")
        #expect(up.status == 66 && up.stdout.isEmpty, "anchor up: exit \(up.status)")
        #expect(up.stderr.contains("nothing to export: the anchor is up"), "\(up.stderr)")

        let drop = try ControlSocketTests.run(["--socket", daemon.socketPath, "anchor", "drop", "--radius", "40"])
        try #require(drop.status == 0, "\(drop.stderr)")
        // The reply comes before journald has the entry (read at once, beside make
        // test-repeat's CPU hog, it was not there yet).
        try daemon.waitFor("anchor_dropped", timeout: 60)
        let dropped = try #require(try daemon.entries("anchor_dropped").first)
        let droppedAt = try #require(Timestamp.parse(dropped["GPSTRACK_TIME"] as? String ?? ""))
        try #require(droppedAt < last - 300, "dropped with 5 minutes of swing to come (+\(droppedAt - last) s)")
        // The feed has ended (gpsfake plays the log once): every fix fed has been judged.
        try daemon.waitFor("fix_lost", timeout: 120)

        let r = try ExportDay.export(daemon, "geojson", ["--anchor"], file: "anchor.geojson")
        try #require(r.status == 0, "\(r.stderr)")
        let features = try ExportFormatsTests.ogr(r.path)
        #expect(features.count == 2, "the track and the anchor: \(features.map(\.fields))")
        let anchor = try #require(features.first { $0.fields["kind"] == "anchor" })
        #expect(anchor.type == "POINT" && Double(anchor.fields["radius_m"] ?? "") == 40, "\(anchor.fields)")
        let anchorAt = try #require(anchor.coordinates.first)
        #expect(abs(anchorAt.latitude - (Double(dropped["GPSTRACK_ANCHOR_LAT"] as? String ?? "") ?? 0)) < 1e-6)
        #expect(abs(anchorAt.longitude - (Double(dropped["GPSTRACK_ANCHOR_LON"] as? String ?? "") ?? 0)) < 1e-6)
        #expect(
            ExportFormatsTests.digits(anchor.fields["time"])
                == ExportFormatsTests.digits(Timestamp.iso8601(droppedAt)), "\(anchor.fields)")
        let track = try #require(features.first { $0.fields["kind"] == "track" })
        #expect(track.type == "LINESTRING")

        // Position by position, in order, a fix fed after the drop (NMEA keeps 1e-7 degree).
        let after = fed.filter { ($0.time ?? 0) > droppedAt }
        var k = 0
        var matched: [Fix] = []
        for c in track.coordinates {
            while k < after.count,
                abs(after[k].latitude - c.latitude) > 3e-7 || abs(after[k].longitude - c.longitude) > 3e-7
            {
                k += 1
            }
            guard k < after.count else { break }
            matched.append(after[k])
            k += 1
        }
        #expect(matched.count == track.coordinates.count, "every position is a fix fed after the drop, in order")
        #expect(matched.first?.time == after.first?.time, "from the first fix after the drop")
        #expect(matched.last?.time == last, "to the last fix")
        // The screen may turn a few fixes away; the swing is no reason to.
        #expect(matched.count >= after.count * 9 / 10, "\(matched.count) of \(after.count) fixes")

        #expect(try ControlSocketTests.run(["--socket", daemon.socketPath, "anchor", "raise"]).status == 0)
        try daemon.waitFor("anchor_raised")
        let raised = try ExportDay.export(daemon, "gpx", ["--anchor"], file: "anchor-raised.gpx")
        #expect(raised.status == 66 && raised.stderr.contains("the anchor is up"), "\(raised.stderr)")
        #expect(daemon.stop() == 0)
    }
}
