import Foundation
import Testing

@testable import GPSTrackDaemon

/// gpsd's SKY reports read through libgps: satellites used and seen and the DOPs, checked
/// against what gpsd itself printed in the regression captures (parsed here by Foundation).
@Suite struct GPSDSkyTests {
    static let folder = SharedCaptureTests.folder.appendingPathComponent("json")

    @Test func everySkyOfTheCapturesReadsAsGpsdPrintedIt() throws {
        let decoder = GPSDDecoder()
        decoder.skyIntervalS = 0
        var checked = 0
        var withSatellites = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        where name.hasSuffix(".json") {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            for (n, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            where line.contains(#""class":"SKY""#) {
                let truth = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                guard case .sky(let sky) = decoder.decode(Array(line.utf8)[...], now: 0) else {
                    Issue.record("\(name):\(n + 1) not read as a SKY")
                    continue
                }
                let at = "\(name):\(n + 1)"
                #expect(sky.device == truth["device"] as? String, "\(at)")
                for (key, value) in [("hdop", sky.hdop), ("vdop", sky.vdop), ("pdop", sky.pdop)] {
                    #expect(value == (truth[key] as? NSNumber)?.doubleValue, "\(at) \(key)")
                }
                // gpsd prints nSat and uSat (3.22 does, also as 0 without a list); else the list tells.
                let satellites = truth["satellites"] as? [[String: Any]]
                let used = (truth["uSat"] as? Int) ?? satellites.map { $0.filter { $0["used"] as? Bool == true }.count }
                let seen = (truth["nSat"] as? Int) ?? satellites.map(\.count)
                if satellites?.isEmpty == false { withSatellites += 1 }
                #expect(
                    sky.used == used && sky.seen == seen,
                    "\(at): \(sky.used ?? -1) of \(sky.seen ?? -1), gpsd \(used ?? -1) of \(seen ?? -1)")
                checked += 1
            }
        }
        #expect(checked > 1500 && withSatellites > 500, "\(checked) SKY lines, \(withSatellites) with satellites")
    }

    @Test func aReceiversSkyIsReadOncePerInterval() {
        let decoder = GPSDDecoder()
        func read(_ device: String, _ now: Double?) -> Bool {
            let line =
                #"{"class":"SKY","device":"\#(device)","hdop":1.5,"satellites":[{"PRN":5,"el":45.0,"az":120.0,"ss":40.0,"used":true}]}"#
            if case .sky(let s) = decoder.decode(Array(line.utf8)[...], now: now) {
                return s.hdop == 1.5 && s.used == 1 && s.seen == 1
            }
            return false
        }
        #expect(read("/dev/a", 100))
        #expect(!read("/dev/a", 100.5), "within the interval: checked, not read")
        #expect(read("/dev/b", 100.5), "another receiver has its own interval")
        #expect(read("/dev/a", 101))
        #expect(!read("/dev/a", nil), "without a time (replay) no SKY is read")
    }

    /// A feed played faster than real time: one SKY per second of the receiver's fixes is read
    /// (each epoch's HDOP and satellites go with its track point), however little monotonic
    /// time passed.
    @Test func aSkyIsReadOncePerSecondOfFixTime() {
        let decoder = GPSDDecoder()
        func tpv(_ t: String) {
            let line = #"{"class":"TPV","device":"/dev/a","mode":3,"time":"\#(t)","lat":48.1,"lon":11.5}"#
            guard case .tpv = decoder.decode(Array(line.utf8)[...], now: 100) else {
                Issue.record("not a TPV: \(line)")
                return
            }
        }
        func read(_ hdop: Double) -> Double? {
            let line = #"{"class":"SKY","device":"/dev/a","hdop":\#(hdop),"satellites":[{"PRN":5,"used":true}]}"#
            if case .sky(let s) = decoder.decode(Array(line.utf8)[...], now: 100) { return s.hdop }
            return nil
        }
        #expect(read(1.0) == 1.0, "before any TPV: read by monotonic time")
        tpv("2026-03-14T08:00:00.000Z")
        #expect(read(1.1) == 1.1, "the first epoch with a time")
        #expect(read(1.2) == nil, "the same epoch, the same monotonic second: not read")
        tpv("2026-03-14T08:00:01.000Z")
        #expect(read(1.3) == 1.3, "the next second of fixes")
        tpv("2026-03-14T08:00:01.500Z")
        #expect(read(1.4) == nil, "half a second of fixes later")
    }
}
