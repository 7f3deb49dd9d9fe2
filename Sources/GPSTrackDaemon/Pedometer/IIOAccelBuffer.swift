import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Why an IIO device cannot be used (now).
struct IIOError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// An accelerometer read through its IIO buffer: the x, y, z channels (and the timestamp, when
/// the device has one) enabled in `scan_elements`, the sampling frequency asked for, the
/// buffer enabled and `/dev/iio:deviceN` read without blocking. Scan records are decoded per
/// the channels' `*_type`, which is checked as hostile input.
final class IIOAccelBuffer {
    let device: IIODevice
    let fd: Int32
    let layout: IIOScanLayout
    /// Frequency the device reports (or 50 Hz when it does not say).
    let frequency: Double
    private let axes: [(channel: IIOScanLayout.Channel, scale: Double, offset: Double)]
    private let timestamp: IIOScanLayout.Channel?
    private var partial: [UInt8] = []
    private var index = 0
    private let start = MonotonicClock.now()
    /// Records in a row whose values no accelerometer reads.
    private(set) var garbageRun = 0

    static let wantedFrequency = 50.0
    /// Beyond 50 g a record is garbage.
    static let maxMagnitude = 50 * 9.80665

    init(device: IIODevice, devRoot: String) throws(IIOError) {
        self.device = device
        let scan = device.path + "/scan_elements"
        IIODevice.writeText(device.path + "/buffer/enable", "0")
        // Only our channels: every other scan element is switched off.
        for name in Self.listing(scan) where name.hasSuffix("_en") {
            let mine = ["in_accel_x_en", "in_accel_y_en", "in_accel_z_en", "in_timestamp_en"].contains(name)
            IIODevice.writeText(scan + "/" + name, mine ? "1" : "0")
        }
        var channels: [IIOScanLayout.Channel] = []
        for name in ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"] {
            let base = scan + "/" + name
            guard IIODevice.exists(base + "_en") else {
                if name == "in_timestamp" { continue }
                throw IIOError("\(base)_en is missing")
            }
            guard IIODevice.readText(base + "_en") == "1" else { throw IIOError("\(base)_en could not be enabled") }
            guard let typeText = IIODevice.readText(base + "_type"), let type = IIOScanType.parse(typeText) else {
                throw IIOError("\(base)_type is not a scan type like le:s16/16>>0")
            }
            guard let indexText = IIODevice.readText(base + "_index"), let index = Int(indexText),
                (0...1023).contains(index)
            else {
                throw IIOError("\(base)_index is not a scan index")
            }
            if name == "in_timestamp" && type.storageBits != 64 { continue }
            channels.append(.init(name: name, index: index, type: type))
        }
        guard let layout = IIOScanLayout(channels: channels) else {
            throw IIOError("\(scan): two channels share a scan index")
        }
        self.layout = layout
        var axes: [(IIOScanLayout.Channel, Double, Double)] = []
        for axis in ["x", "y", "z"] {
            let scale =
                IIODevice.readNumber(device.path + "/in_accel_\(axis)_scale")
                ?? IIODevice.readNumber(device.path + "/in_accel_scale")
            guard let scale, scale > 0, scale < 1 else {
                throw IIOError("\(device.path)/in_accel_scale is not a scale (m/s² per count)")
            }
            let offset =
                IIODevice.readNumber(device.path + "/in_accel_\(axis)_offset") ?? IIODevice.readNumber(
                    device.path + "/in_accel_offset") ?? 0
            // An offset in counts of a sample at most 64 bits wide: beyond 2^32 no driver's.
            guard offset.isFinite, abs(offset) <= 4_294_967_296 else {
                throw IIOError("\(device.path)/in_accel_offset is not an offset (counts)")
            }
            axes.append((layout.channel("in_accel_\(axis)")!, scale, offset))
        }
        self.axes = axes
        timestamp = layout.channel("in_timestamp")
        var frequency = Self.wantedFrequency
        for file in ["in_accel_sampling_frequency", "sampling_frequency"]
        where IIODevice.exists(device.path + "/" + file) {
            IIODevice.writeText(device.path + "/" + file, "\(Int(clamping: Self.wantedFrequency))")
            if let f = IIODevice.readNumber(device.path + "/" + file), f >= 1, f <= 10_000 { frequency = f }
            break
        }
        self.frequency = frequency
        IIODevice.writeText(device.path + "/buffer/length", "256")
        guard IIODevice.writeText(device.path + "/buffer/enable", "1") else {
            throw IIOError("\(device.path)/buffer/enable refused")
        }
        let node = devRoot + "/" + device.id
        do { fd = try syscall("open \(node)") { open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC) } } catch {
            IIODevice.writeText(device.path + "/buffer/enable", "0")
            throw IIOError("cannot open \(node): \(error)")
        }
    }

    /// Closes the device and disables its buffer.
    func close() {
        FileIO.close(fd)
        IIODevice.writeText(device.path + "/buffer/enable", "0")
    }

    /// Reads what the buffer holds, handing each decoded sample to `sample`; returns the bytes
    /// read. Throws when the device is gone (an error, or the end of the file).
    @discardableResult
    func drain(_ sample: (AccelSample) -> Void) throws(IIOError) -> Int {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while true {
            let fd = self.fd
            let n: Int
            do { n = try syscall("read") { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } } } catch
            {
                if error.code == EAGAIN { return total }
                throw IIOError("reading \(device.id): \(error)")
            }
            if n == 0 { throw IIOError("\(device.id): the buffer device was closed") }
            total += n
            partial.append(contentsOf: chunk[0..<n])
            let size = layout.recordBytes
            let whole = partial.count / size * size
            partial.withUnsafeBytes { raw in
                var at = 0
                while at < whole {
                    decode(UnsafeRawBufferPointer(rebasing: raw[at..<(at + size)])).map(sample)
                    at += size
                }
            }
            partial.removeFirst(whole)
            if n < chunk.count { return total }
        }
    }

    private func decode(_ record: UnsafeRawBufferPointer) -> AccelSample? {
        var v: [Double] = []
        for a in axes {
            v.append((Double(a.channel.type.value(in: record, at: a.channel.offset)) + a.offset) * a.scale)
        }
        let t =
            timestamp.map { Double($0.type.value(in: record, at: $0.offset)) * 1e-9 } ?? start + Double(index)
            / frequency
        index += 1
        guard (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() <= Self.maxMagnitude else {
            garbageRun += 1
            return nil
        }
        garbageRun = 0
        return AccelSample(t: t, x: v[0], y: v[1], z: v[2])
    }

    private static func listing(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names.sorted()
    }
}
