import GPSTrackJSON
import GPSTrackSim
import Testing

@testable import GPSTrackCore

/// A fences file mangled byte by byte: the parser refuses most of them and crashes on none.
@Suite struct GeoJSONMutationTests {
    @Test func mutatedFencesNeverCrash() {
        let fences = FenceGenerator.fences(
            count: 20, origin: Coordinate(latitude: 47, longitude: 8), sideM: 2000, seed: 3)
        let good = Array(FenceGenerator.geoJSON(fences).utf8)
        var rng = SeededRandom(seed: 9)
        var refused = 0
        for _ in 0..<300 {
            var bytes = good
            for _ in 0..<(1 + Int(rng.unit() * 4)) {
                let at = Int(rng.unit() * Double(bytes.count - 1))
                switch Int(rng.unit() * 3) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: Int(rng.unit() * 256))
                case 1: bytes.remove(at: at)
                default: bytes.insert(UInt8(truncatingIfNeeded: Int(rng.unit() * 256)), at: at)
                }
            }
            if (try? JSONValue.parse(bytes)) == nil { refused += 1 }
        }
        #expect(refused > 100, "most mutations break the JSON")
    }
}
