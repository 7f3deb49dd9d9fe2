import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim

/// A laid-out IIO tree in a temporary directory: `sys/iio:deviceN/…` as sysfs shows a device,
/// and `dev/iio:deviceN` as a FIFO standing for the buffer device.
final class IIOTree {
    let root: String
    var sys: String { root + "/sys" }
    var dev: String { root + "/dev" }

    init(_ name: String) throws {
        root = NSTemporaryDirectory() + "gpstrackd-iio-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: sys, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dev, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Writes a sysfs attribute (through a rename, so the daemon never reads half a value).
    func write(_ path: String, _ value: String) throws {
        let full = sys + "/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try (value + "\n").write(toFile: full + ".tmp", atomically: false, encoding: .utf8)
        guard rename(full + ".tmp", full) == 0 else { throw POSIXError(.EIO) }
    }

    func read(_ path: String) -> String? {
        (try? String(contentsOfFile: sys + "/" + path, encoding: .utf8))?.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    func remove(_ device: String) { try? FileManager.default.removeItem(atPath: sys + "/" + device) }

    /// A step counter (as a BMA400 shows it).
    func addCounter(_ device: String, name: String, steps: Int) throws {
        try write("\(device)/name", name)
        try write("\(device)/in_steps_en", "0")
        try write("\(device)/in_steps_input", String(steps))
    }

    /// An accelerometer with x, y, z (le:s16) and a timestamp (le:s64) in its scan elements, a
    /// temperature channel the daemon must switch off, and a FIFO as its buffer device.
    func addAccelerometer(_ device: String, name: String, scale: Double, fifo: Bool = true) throws {
        try write("\(device)/name", name)
        try write("\(device)/in_accel_scale", String(scale))
        try write("\(device)/sampling_frequency", "100")
        try write("\(device)/buffer/enable", "0")
        try write("\(device)/buffer/length", "2")
        for (i, axis) in ["x", "y", "z"].enumerated() {
            try write("\(device)/in_accel_\(axis)_raw", "0")
            try write("\(device)/scan_elements/in_accel_\(axis)_en", "0")
            try write("\(device)/scan_elements/in_accel_\(axis)_index", String(i))
            try write("\(device)/scan_elements/in_accel_\(axis)_type", "le:s16/16>>0")
        }
        try write("\(device)/scan_elements/in_timestamp_en", "0")
        try write("\(device)/scan_elements/in_timestamp_index", "3")
        try write("\(device)/scan_elements/in_timestamp_type", "le:s64/64>>0")
        try write("\(device)/scan_elements/in_temp_en", "1")
        try write("\(device)/scan_elements/in_temp_index", "4")
        try write("\(device)/scan_elements/in_temp_type", "le:s16/16>>0")
        if fifo { guard mkfifo(dev + "/" + device, 0o600) == 0 else { throw POSIXError(.EEXIST) } }
    }

    /// Scan records of `samples` as the kernel lays them out for x, y, z (s16 counts of
    /// `scale` m/s²) and the timestamp (s64 ns): 16 bytes each.
    static func records(_ samples: ArraySlice<AccelSample>, scale: Double, startTime: Double) -> Data {
        var data = Data(capacity: samples.count * 16)
        for s in samples {
            for v in [s.x, s.y, s.z] {
                let count = Int16(clamping: Int((v / scale).rounded()))
                withUnsafeBytes(of: count.littleEndian) { data.append(contentsOf: $0) }
            }
            data.append(contentsOf: [0, 0])
            let ns = Int64(((s.t + startTime) * 1e9).rounded())
            withUnsafeBytes(of: ns.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }
}
