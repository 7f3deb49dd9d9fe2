import Foundation
import GPSTrackCore
import GPSTrackExport
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

/// Heights go out above mean sea level: a real capture whose gpsd JSON gives altMSL and altHAE
/// (ublox-8: 21.4 m apart) through the libgps decoder, then as an OwnTracks location, an OsmAnd
/// position and a GPX point from the store; each carries altMSL, none altHAE.
@Suite struct SeaLevelHeightTests {
    static let capture = ExecutableRunner.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/gpsd-captures/json/ublox-8.json")

    /// The capture's TPVs with both heights: the decoded fix and gpsd's own figures.
    static func fixes() throws -> [(fix: Fix, msl: Double, hae: Double)] {
        let text = try String(contentsOf: capture, encoding: .utf8)
        let decoder = GPSDDecoder()
        var out: [(Fix, Double, Double)] = []
        for line in text.split(whereSeparator: \.isNewline) where line.contains(#""class":"TPV""#) {
            guard let msl = number("altMSL", in: line), let hae = number("altHAE", in: line) else { continue }
            guard case .tpv(let fix) = decoder.decode(Array(line.utf8)[...]) else {
                Issue.record("not decoded as a TPV: \(line)")
                continue
            }
            out.append((fix, msl, hae))
        }
        return out
    }

    /// gpsd's figure for `key` in a TPV line, read as text (not by the code under test).
    static func number(_ key: String, in line: Substring) -> Double? {
        guard let r = line.range(of: "\"\(key)\":") else { return nil }
        return Double(line[r.upperBound...].prefix { "-.0123456789eE".contains($0) })
    }

    @Test func ownTracksOsmAndAndGPXCarryTheHeightAboveSeaLevel() throws {
        let fixes = try Self.fixes()
        try #require(fixes.count >= 10, "the capture has fixes with both heights")
        #expect(fixes.allSatisfy { abs($0.msl - $0.hae) > 20 }, "the two heights differ here")
        let dir = NSTemporaryDirectory() + "gpstrackd-heights-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = Store(directory: dir, journal: Journal(target: .stderr))
        var rows: [Store.PointRow] = []
        for (k, (fix, msl, _)) in fixes.enumerated() {
            let location = OwnTracks.location(
                fix, time: fix.time ?? 0, tid: "gt", assumedErrorM: 15, inRegions: nil)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(location.utf8)) as? [String: Any])
            #expect(object["alt"] as? Int == Int(msl.rounded()), "OwnTracks alt: \(location)")
            let extras = OsmAnd.Extras(deviceID: "box", moving: nil, odometerM: 0, alarm: nil, assumedErrorM: 15)
            let query = OsmAnd.query(time: fix.time ?? 0, at: fix.coordinate, fix: fix, extras)
            #expect(query.contains("&altitude=\((msl * 10).rounded() / 10)&"), "OsmAnd altitude: \(query)")
            rows.append(
                Store.PointRow(
                    time: (fix.time ?? 0) + Double(k), latitude: fix.latitude, longitude: fix.longitude,
                    altitude: fix.altitude, eph: 5, mode: fix.mode, altitudeHAE: fix.altitudeHAE))
        }
        #expect(store.commit(events: [], trip: Trip(), fences: [:], points: rows, force: true))
        var gpx = ""
        var writer = GPXExport(title: "heights") { gpx += $0 }
        let stored = store.exportRows(Store.PointFilter(run: nil, since: nil, until: nil), from: nil, limit: 1000)
        try #require(stored.count == fixes.count)
        for row in stored { writer.point(ExportHandlers.exportPoint(row, after: nil)) }
        let elevations = gpx.components(separatedBy: "<ele>").dropFirst().compactMap { Double($0.prefix { $0 != "<" }) }
        #expect(elevations == fixes.map { ($0.msl * 100).rounded() / 100 }, "GPX ele: \(gpx.prefix(400))")
    }
}
