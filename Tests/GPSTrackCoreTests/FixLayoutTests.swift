import GPSTrackCore
import Testing

/// A fix is copied from stage to stage dozens of times a report: it stays small enough to be
/// copied inline, and its optionals, stored without tags, read back as they were set.
@Suite struct FixLayoutTests {
    @Test func aFixFitsIn128Bytes() {
        #expect(MemoryLayout<Fix>.size <= 128, "\(MemoryLayout<Fix>.size) bytes")
    }

    @Test func theOptionalsReadBackAsSet() {
        var fix = Fix(mode: 3, time: 1_773_475_358.25, latitude: 52.5, longitude: 13.4)
        #expect(fix.time == 1_773_475_358.25 && fix.satellitesUsed == nil)
        fix.satellitesUsed = 0
        #expect(fix.satellitesUsed == 0)
        fix.satellitesUsed = 31
        #expect(fix.satellitesUsed == 31)
        fix.satellitesUsed = nil
        #expect(fix.satellitesUsed == nil)
        fix.time = nil
        #expect(fix.time == nil)
        fix.time = 0
        #expect(fix.time == 0)
        // A time that is no number is no time (the screen refused it as such before).
        #expect(Fix(mode: 3, time: .nan).time == nil)
        #expect(Fix(mode: 3, time: nil).time == nil)
    }
}
