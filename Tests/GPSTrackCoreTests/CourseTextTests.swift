import GPSTrackCore
import GPSTrackProtocol
import Testing

@Suite struct CourseTextTests {
    @Test(arguments: [
        (0.0, 0, "N", "N"), (90.0, 90, "E", "E"), (180.0, 180, "S", "S"), (270.0, 270, "W", "W"),
        (360.0, 0, "N", "N"), (35.0, 35, "NE", "N35°E"), (190.0, 190, "S", "S10°W"),
        (350.0, 350, "N", "N10°W"), (135.0, 135, "SE", "S45°E"), (225.0, 225, "SW", "S45°W"),
        (89.6, 90, "E", "E"), (-90.0, 270, "W", "W"), (22.5, 23, "NNE", "N23°E"),
        (11.0, 11, "N", "N11°E"), (12.0, 12, "NNE", "N12°E"), (359.9, 0, "N", "N"), (720.0, 0, "N", "N"),
    ])
    func edgeAngles(_ track: Double, _ degrees: Int, _ compass: String, _ quadrant: String) {
        let c = CourseText(track: track, speed: 5)
        #expect(c.degrees == degrees)
        #expect(c.compass == compass)
        #expect(c.quadrant == quadrant)
    }

    @Test func unknownWhenNaNOrTooSlow() {
        #expect(CourseText(track: .nan, speed: 5).text == "unknown")
        #expect(CourseText(track: .infinity).quadrant == "unknown")
        #expect(CourseText(track: 45, speed: 0.2).compass == "unknown")
        // Speed unknown: the course stands on its own.
        #expect(CourseText(track: 45).text == "45° NE (N45°E)")
    }
}
