// libFuzzer harness: the GeoJSON fences loader (parse, then the index that validates and
// prepares every shape).
import GPSTrackCore
import GPSTrackProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let fences = try? GeoJSONFences.parse(bytes, file: "fuzz.geojson") else { return 0 }
    _ = try? FenceIndex(fences: fences, file: "fuzz.geojson")
    return 0
}
