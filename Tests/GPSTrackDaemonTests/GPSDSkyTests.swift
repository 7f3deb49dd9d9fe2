import Foundation
import Testing

@testable import GPSTrackDaemon

/// gpsd's SKY reports read through libgps: satellites used and seen and the DOPs, checked
/// against what gpsd itself printed in the regression captures (parsed here by Foundation).
@Suite struct GPSDSkyTests {
    static let folder = SharedCaptureTests.folder.appendingPathComponent("json")

    @Test(SharedCaptureTests.gate) func everySkyOfTheCapturesReadsAsGpsdPrintedIt() throws {
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
}
