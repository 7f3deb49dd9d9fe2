import GPSTrackCore
import GPSTrackProtocol
import Testing

/// IIO scan records and the pedometer's figures.
@Suite struct IIOScanTests {
    @Test func parsesKernelTypeLines() throws {
        let a = try #require(IIOScanType.parse("le:s16/16>>0\n"))
        #expect(
            a == IIOScanType(bigEndian: false, signed: true, realBits: 16, storageBits: 16, shift: 0, repeatCount: 1))
        let b = try #require(IIOScanType.parse("be:s12/16>>4"))
        #expect(b.bigEndian && b.realBits == 12 && b.shift == 4 && b.bytes == 2)
        let c = try #require(IIOScanType.parse("le:u64/64>>0"))
        #expect(!c.signed && c.bytes == 8)
        let d = try #require(IIOScanType.parse("le:s16/16X3>>0"))
        #expect(d.repeatCount == 3 && d.bytes == 6)
    }

    @Test(arguments: [
        "", "le", "le:", "xe:s16/16>>0", "le:q16/16>>0", "le:s16/16", "le:s16/12>>0", "le:s17/16>>0",
        "le:s0/16>>0", "le:s16/16>>16", "le:s12/16>>5", "le:s16/24>>0", "le:s-1/16>>0", "le:s16/16>>-1",
        "le:s16/16X0>>0", "le:s16/16X99>>0", "le:s99999999999999999999/16>>0", "le:s16/16>>0junk", "le :s16/16>>0",
        "le:s16/16>>>0", "le:s16//16>>0", "le:s16/16X>>0",
    ])
    func refusesWhatTheKernelDoesNotWrite(text: String) {
        #expect(IIOScanType.parse(text) == nil)
    }

    @Test func decodesValues() {
        let s12 = IIOScanType.parse("be:s12/16>>4")!
        // -5 as 12 bits is 0xFFB; shifted left by 4: 0xFFB0, big-endian; low nibble is noise.
        #expect([UInt8]([0xFF, 0xB7]).withUnsafeBytes { s12.value(in: $0, at: 0) } == -5)
        let s16 = IIOScanType.parse("le:s16/16>>0")!
        #expect([UInt8]([0x00, 0x80]).withUnsafeBytes { s16.value(in: $0, at: 0) } == -32768)
        #expect([UInt8]([0xFF, 0x7F]).withUnsafeBytes { s16.value(in: $0, at: 0) } == 32767)
        let u10 = IIOScanType.parse("le:u10/16>>2")!
        #expect([UInt8]([0xFF, 0xFF]).withUnsafeBytes { u10.value(in: $0, at: 0) } == 1023)
        let s64 = IIOScanType.parse("le:s64/64>>0")!
        let ns: Int64 = 1_773_475_200_123_456_789
        #expect(withUnsafeBytes(of: ns.littleEndian) { s64.value(in: $0, at: 0) } == ns)
    }

    @Test func laysOutRecordsAsTheKernelDoes() throws {
        let s16 = IIOScanType.parse("le:s16/16>>0")!
        let s64 = IIOScanType.parse("le:s64/64>>0")!
        // Given out of order: x=0, y=1, z=2, timestamp=3.
        let layout = try #require(
            IIOScanLayout(channels: [
                .init(name: "ts", index: 3, type: s64), .init(name: "z", index: 2, type: s16),
                .init(name: "x", index: 0, type: s16), .init(name: "y", index: 1, type: s16),
            ]))
        #expect(layout.channels.map(\.name) == ["x", "y", "z", "ts"])
        #expect(layout.channels.map(\.offset) == [0, 2, 4, 8])
        #expect(layout.recordBytes == 16)
        let u8 = IIOScanType.parse("le:u8/8>>0")!
        let odd = try #require(
            IIOScanLayout(channels: [.init(name: "a", index: 0, type: u8), .init(name: "b", index: 1, type: s16)]))
        #expect(odd.channels.map(\.offset) == [0, 2] && odd.recordBytes == 4)
        #expect(IIOScanLayout(channels: []) == nil)
        #expect(
            IIOScanLayout(channels: [.init(name: "a", index: 0, type: u8), .init(name: "b", index: 0, type: u8)]) == nil
        )
    }
}

@Suite struct PedometerTests {
    @Test func aCounterThatGoesBackNeitherLosesNorInvents() {
        var p = Pedometer(defaultStrideM: 0.7)
        #expect(p.counter(1000, at: 0) == .baseline)
        #expect(p.memory.total == 0)
        #expect(p.counter(1010, at: 5) == .steps(10))
        #expect(p.counter(1010, at: 6) == .steps(0))
        // The chip was reset and has counted 4 steps since.
        #expect(p.counter(4, at: 7) == .reset(4))
        #expect(p.counter(9, at: 8) == .steps(5))
        #expect(p.memory.total == 19 && p.memory.tripSteps == 19)
        #expect(abs(p.memory.distanceM - 19 * 0.7) < 1e-9)
    }

    @Test func stepsTakenWhileDownCountAfterARestart() {
        var p = Pedometer(defaultStrideM: 0.7)
        _ = p.counter(500, at: 0)
        _ = p.counter(520, at: 1)
        var q = Pedometer(defaultStrideM: 0.7, memory: p.memory)  // restarted with what was stored
        #expect(q.counter(600, at: 1000) == .steps(80))
        #expect(q.memory.total == 100)
        var r = Pedometer(defaultStrideM: 0.7, memory: q.memory)  // the chip was reset while down
        #expect(r.counter(30, at: 5000) == .reset(30))
        #expect(r.memory.total == 130)
    }

    @Test func implausibleJumpsCountNothing() {
        var p = Pedometer(defaultStrideM: 0.7)
        _ = p.counter(10, at: 0)
        #expect(p.counter(1_000_000, at: 1) == .implausible)
        #expect(p.counter(1_000_003, at: 2) == .steps(3))
        #expect(p.counter(-4, at: 3) == .implausible)
        #expect(p.memory.total == 3)
    }

    @Test func cadenceAndTrips() {
        var p = Pedometer(defaultStrideM: 0.7)
        _ = p.counter(0, at: 0)
        for s in 1...60 { _ = p.counter(2 * s, at: Double(s)) }  // 120 steps/min for a minute
        #expect(abs(p.cadence(at: 60) - 120) < 3)
        #expect(abs((p.tripCadence ?? 0) - 120) < 1)
        #expect(p.cadence(at: 200) == 0)
        p.startTrip()
        #expect(p.memory.tripSteps == 0 && p.memory.total == 120)
        p.detected(8, walkingS: 4, at: 210)
        #expect(p.memory.tripSteps == 8 && p.memory.total == 128)
    }

    @Test func theStrideIsLearnedFromWalkingOnly() {
        var p = Pedometer(defaultStrideM: 0.7)
        #expect(!p.strideLearned && p.strideM == 0.7)
        // A drive: 600 m in a minute and no steps.
        p.observeOdometer(traveledM: 0, at: 0)
        p.observeOdometer(traveledM: 600, at: 60)
        #expect(!p.strideLearned)
        // A walk: 110 steps/min, 0.8 m a step, fixes every second for three minutes.
        for s in 1...180 {
            p.detected(s % 6 == 0 ? 11 : 0, walkingS: s % 6 == 0 ? 6 : 0, at: 60 + Double(s))
            p.observeOdometer(traveledM: 600 + Double(s) * 110 / 60 * 0.8, at: 60 + Double(s))
        }
        #expect(p.strideLearned)
        #expect(abs(p.strideM - 0.8) < 0.02)
    }

    @Test func aTripReportedAfterItsDepartureTakesTheStepsSinceThen() {
        var p = Pedometer(defaultStrideM: 0.7)
        for s in 0...100 {  // fixes every second; 2 steps a second from t = 50
            if s > 50 { p.detected(2, walkingS: 1, at: Double(s)) }
            p.observeOdometer(traveledM: 0, at: Double(s))
        }
        #expect(p.memory.total == 100)
        p.startTrip(since: 80)
        #expect(p.memory.tripSteps == 40 && abs(p.memory.tripDistanceM - 28) < 1e-9 && p.memory.tripWalkingS == 20)
        p.startTrip(since: 5000)  // after the last fix: nothing since
        #expect(p.memory.tripSteps == 0)
        p.startTrip()
        #expect(p.memory.tripSteps == 0 && p.memory.total == 100)
    }
}
