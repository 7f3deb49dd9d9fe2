import GPSTrackCore
import GPSTrackProtocol
import Testing

@Suite struct TimestampTests {
    // 1773475358 is what libgps's gps_unpack gives for "2026-03-14T08:02:38.000Z"; 951782400 is
    // `date -u -d 2000-02-29 +%s`.
    @Test func formatsKnownInstants() {
        #expect(Timestamp.iso8601(1_773_475_358) == "2026-03-14T08:02:38.000Z")
        #expect(Timestamp.iso8601(951_782_400.25) == "2000-02-29T00:00:00.250Z")
        #expect(Timestamp.iso8601(0) == "1970-01-01T00:00:00.000Z")
    }

    @Test func parsesAndRejects() {
        #expect(Timestamp.parse("2026-03-14T08:02:38.000Z") == 1_773_475_358)
        #expect(Timestamp.parse("2000-02-29T00:00:00.5Z") == 951_782_400.5)
        #expect(Timestamp.parse("2026-03-14T08:02:38Z") == 1_773_475_358)
        #expect(Timestamp.parse("2026-13-14T08:02:38Z") == nil)
        #expect(Timestamp.parse("yesterday") == nil)
        #expect(Timestamp.parse("2026-03-14 08:02:38Z") == nil)
    }
}
