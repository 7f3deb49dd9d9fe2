// libFuzzer harness: the GeoJSON fences loader (parse, then the index that validates and
// prepares every shape).
// Property: the index's pruned look-up (its STRtree's candidates, then the signed distance)
// finds a point inside exactly the fences a brute-force pass over every fence finds, for points
// at each fence's vertices' neighbourhood and the bytes' own choice.
import GPSTrackCore
import GPSTrackProtocol

func probes(_ fences: [Fence], _ bytes: [UInt8]) -> [Coordinate] {
    var points: [Coordinate] = []
    for f in fences.prefix(8) {
        let c: Coordinate
        switch f.shape {
        case .circle(let center, _): c = center
        case .polygons(let polygons): c = polygons.first?.first?.first ?? Coordinate(latitude: 0, longitude: 0)
        case .corridor(let lines, _): c = lines.first?.first ?? Coordinate(latitude: 0, longitude: 0)
        }
        for (dlat, dlon) in [(0.0, 0.0), (1e-4, 0.0), (0.0, -1e-4), (-3e-4, 3e-4), (1e-3, 1e-3)] {
            points.append(Coordinate(latitude: c.latitude + dlat, longitude: c.longitude + dlon))
        }
    }
    let tail = bytes.suffix(4)
    if tail.count == 4 {
        let lat = (Double(tail[tail.startIndex]) - 128) / 128 * 89 + Double(tail[tail.startIndex + 1]) / 2560
        let lon = (Double(tail[tail.startIndex + 2]) - 128) / 128 * 179 + Double(tail[tail.startIndex + 3]) / 2560
        points.append(Coordinate(latitude: lat, longitude: lon))
    }
    return points.filter { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let fences = try? GeoJSONFences.parse(bytes, file: "fuzz.geojson"),
        let index = try? FenceIndex(fences: fences, file: "fuzz.geojson")
    else { return 0 }
    for p in probes(index.fences, bytes) {
        let pruned = Set(index.candidates(near: p, marginM: 1).filter { index.signedDistance(fence: $0, point: p) >= 0 })
        let brute = Set(index.fences.indices.filter { index.signedDistance(fence: $0, point: p) >= 0 })
        precondition(pruned == brute, "at \(p): the index finds \(pruned.sorted()), every fence \(brute.sorted())")
    }
    return 0
}
