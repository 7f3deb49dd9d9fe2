import GPSTrackExport
import GPSTrackProtocol
import Testing

/// The GeoJSON export's exact text for a trip, a stop, an event and a fence, written by hand
/// from gpstrackctl(1) (*export*, geojson): the properties in that order, a figure the trip lacks
/// left out, a parked stop's departure and duration and an event's missing fence `null`,
/// whole figures as `1500.0`, positions [lon, lat].
@Suite struct GeoJSONPropertiesTests {
    @Test func aTripAStopAnEventAndAFenceAsTheyAreDocumented() {
        var trip = AutoTrip(
            id: 4, state: "ended", startedAt: "2026-03-14T08:00:00.000Z",
            from: Place(lat: 47.5, lon: 8.5, fences: ["Home", "Yard"]), traveledM: 1500)
        trip.endedAt = "2026-03-14T08:10:00.000Z"
        trip.to = Place(lat: 47.25, lon: 8.75, fences: [])
        trip.straightLineM = 1200.5
        trip.durationS = 600
        let stop = StopRow(
            arrival: "2026-03-14T08:10:00.000Z", departure: nil, durationS: nil,
            at: Place(lat: 47.25, lon: 8.75, fences: ["Work"]), afterTrip: 4)
        let event = ExportEvent(
            kind: "guard_breach", fence: nil, name: nil, time: "2026-03-14T08:05:00.000Z", lat: 47.375, lon: 8.625)
        var road = ExportFence(
            id: "road \"7\"", name: nil, kind: "corridor", rings: [[[[8.5, 47.5], [8.75, 47.25]]]])
        road.widthM = 30
        let bounds = ExportBounds(
            points: 0, first: 1_773_475_200, last: 1_773_475_800, minLat: 47.25, maxLat: 47.5, minLon: 8.5,
            maxLon: 8.75, minAlt: nil, maxAlt: nil)
        var text = ""
        var w = ExportFormat.geojson.writer(title: "t", fences: true) { text += $0 }
        w.begin(ExportContext(trips: [trip], stops: [stop], events: [event], fences: [road], bounds: bounds))
        w.finish()
        let expected = [
            #"{"type":"FeatureCollection","features":["#,
            #"{"type":"Feature","id":4,"properties":{"kind":"trip","id":4,"state":"ended","#
                + #""start":"2026-03-14T08:00:00.000Z","end":"2026-03-14T08:10:00.000Z","from":"Home, Yard","to":"","#
                + #""distance_m":1500.0,"straight_line_m":1200.5,"duration_s":600.0},"#
                + #""geometry":{"type":"LineString","coordinates":[[8.5,47.5],[8.75,47.25]]}},"#,
            #"{"type":"Feature","properties":{"kind":"stop","id":1,"arrival":"2026-03-14T08:10:00.000Z","#
                + #""departure":null,"duration_s":null,"fences":"Work","after_trip":4},"#
                + #""geometry":{"type":"Point","coordinates":[8.75,47.25]}},"#,
            #"{"type":"Feature","properties":{"kind":"guard_breach","fence":null,"name":null,"#
                + #""time":"2026-03-14T08:05:00.000Z"},"geometry":{"type":"Point","coordinates":[8.625,47.375]}},"#,
            #"{"type":"Feature","id":"road \"7\"","properties":{"kind":"fence","id":"road \"7\"","name":null,"#
                + #""shape":"corridor","width_m":30.0},"#
                + #""geometry":{"type":"MultiLineString","coordinates":[[[8.5,47.5],[8.75,47.25]]]}}"#,
            "]}", "",
        ]
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == expected)
    }
}
