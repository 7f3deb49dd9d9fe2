import GPSTrackCore
import GPSTrackProtocol

/// Loads a GeoJSON fences file into a ready index; any fault refuses the whole file.
public enum FenceLoader {
    /// Largest fences file accepted.
    public static let maxBytes = 64 << 20

    public static func load(_ path: String) throws(FenceError) -> FenceIndex {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path, maxBytes: maxBytes, regularOnly: true) } catch {
            throw FenceError(file: path, reason: "cannot read: \(error)")
        }
        let fences = try GeoJSONFences.parse(bytes, file: path)
        return try FenceIndex(fences: fences, file: path)
    }
}
