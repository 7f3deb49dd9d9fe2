import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon
@testable import GPSTrackExport

/// What the outlets say of the inputs (gpstrackd(8), INPUTS): OwnTracks' `batt`/`bs`, both of
/// Traccar's forms, and the metrics as promtool reads them.
@Suite struct InputOutletsTests {
    static let here = Coordinate(latitude: 52.52, longitude: 13.405)
    static var fix: Fix { Fix(mode: 3, time: 1_773_475_200, latitude: here.latitude, longitude: here.longitude) }

    /// The inputs after the ignition went on and the supply was cut with the battery at 19 %.
    static var inputs: InputMonitor {
        var m = InputMonitor()
        _ = m.ingest(.level(.ignition, on: false), time: 0, at: nil)
        _ = m.ingest(.level(.ignition, on: true), time: 10, at: here)
        _ = m.ingest(.power(online: true, batteryPct: 100, volts: 12.6), time: 10, at: here)
        _ = m.ingest(.power(online: false, batteryPct: 19, volts: 11.94), time: 20, at: here)
        return m
    }

    @Test func ownTracksLocationsCarryTheBatteryAndItsState() throws {
        let on = OwnTracks.location(
            Self.fix, time: 100, tid: "vn", assumedErrorM: 15, inRegions: nil, battery: OwnTracks.Battery(Self.inputs))
        let v = try JSONValue.parse(Array(on.utf8))
        #expect(v["batt"]?.number == 19 && v["bs"]?.number == 1, "unplugged: \(on)")
        var full = InputMonitor()
        _ = full.ingest(.power(online: true, batteryPct: 100, volts: nil), time: 0, at: nil)
        #expect(
            OwnTracks.Battery(full)
                == {
                    var b = OwnTracks.Battery()
                    b.batt = 100
                    b.bs = 3
                    return b
                }())
        let plain = OwnTracks.location(Self.fix, time: 100, tid: "vn", assumedErrorM: 15, inRegions: nil)
        #expect(!plain.contains("batt") && !plain.contains("\"bs\""), "no input_power: neither")
    }

    @Test func bothOfTraccarsFormsCarryTheIgnitionBatteryAndPower() throws {
        let m = Self.inputs
        let x = OsmAnd.Extras(
            deviceID: "box", moving: true, odometerM: 0, alarm: "powerCut", assumedErrorM: 15, ignition: m.ignition,
            batteryPct: m.batteryPct, charge: m.power, powerV: m.volts)
        let query = OsmAnd.query(time: 100, at: Self.here, fix: Self.fix, x)
        for pair in ["ignition=true", "batt=19", "charge=false", "power=11.94", "alarm=powerCut"] {
            #expect(query.split(separator: "&").contains(Substring(pair)), "\(pair) in \(query)")
        }
        let json = try JSONValue.parse(Array(OsmAnd.json(time: 100, at: Self.here, fix: Self.fix, x).utf8))
        let location = try #require(json["location"])
        #expect(location["battery"]?["level"]?.number == 0.19 && location["battery"]?["is_charging"]?.bool == false)
        #expect(location["extras"]?["ignition"]?.bool == true && location["extras"]?["power"]?.number == 11.94)
        #expect(location["extras"]?["alarm"]?.string == "powerCut")
        let none = OsmAnd.query(
            time: 100, at: Self.here, fix: Self.fix,
            OsmAnd.Extras(deviceID: "box", moving: nil, odometerM: 0, alarm: nil, assumedErrorM: 15))
        #expect(!["ignition=", "batt=", "charge=", "power="].contains { none.contains($0) }, "no inputs: \(none)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: MetricsTests.promtool), "promtool: make test"))
    func theMetricsHaveTheInputsSeriesAndPromtoolAcceptsThem() throws {
        var config = InputConfig()
        config.sources = [.ignition: .file(path: "/run/ign"), .power: .powerSupply(name: "ups")]
        var reply = StatusReply()
        reply.inputs = Reports.inputs(Self.inputs, configured: config, now: 733.5)
        let text = Metrics.render(reply, now: 1_773_475_200)
        #expect(MetricsTests.samples(text, "gpstrackd_ignition").map(\.value) == [1])
        #expect(MetricsTests.samples(text, "gpstrackd_engine_seconds_total").map(\.value) == [723.5], "on since 10 s")
        #expect(MetricsTests.samples(text, "gpstrackd_external_power").map(\.value) == [0])
        #expect(MetricsTests.samples(text, "gpstrackd_battery_percent").map(\.value) == [19])
        let checked = try MetricsTests.promtoolAccepts(text)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(!Metrics.render(StatusReply(), now: 0).contains("gpstrackd_ignition"), "no inputs: no series")
    }

    @Test func theMapPagesTripsTableShowsTheEngineTimeWhereTripsHaveIt() throws {
        let bounds = ExportBounds(
            points: 2, first: 1000, last: 9000, minLat: 52, maxLat: 52.1, minLon: 13, maxLon: 13.1, minAlt: nil,
            maxAlt: nil)
        var trip = AutoTrip(
            id: 1, state: "ended", startedAt: "2026-03-14T08:00:00Z", from: Place(lat: 52, lon: 13, fences: []),
            traveledM: 4200)
        trip.durationS = 3000
        trip.movingS = 2400
        trip.engineS = 2700  // 45 min
        func rows(_ trips: [AutoTrip]) throws -> [String] {
            let page = PageParts.figures(ExportContext(trips: trips, stops: [], events: [], fences: [], bounds: bounds))
            let table = try #require(page.firstMatch(of: #/<table id="trips">(.*?)</table>/#)).1
            return table.split(separator: "</tr>").map(String.init)
        }
        let with = try rows([trip])
        let head = with[0].matches(of: #/<th>([^<]*)</th>/#).map { String($0.1) }
        let cells = with[1].matches(of: #/<td[^>]*>([^<]*)</td>/#).map { String($0.1) }
        let column = try #require(head.firstIndex(of: "Engine"), "\(head)")
        #expect(cells.count == head.count && cells[column] == "45 min", "\(head) \(cells)")
        trip.engineS = nil
        #expect(!(try rows([trip]))[0].contains("Engine"), "no ignition: no column")
    }
}
