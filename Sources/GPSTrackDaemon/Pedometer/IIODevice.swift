import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// An IIO device found under `iio_root`: a hardware step counter or an accelerometer. Every
/// file it is read from is hostile: short, garbled or vanishing files are errors, never crashes.
struct IIODevice: Sendable {
    enum Kind: String, Sendable { case counter, accelerometer }

    /// `iio:deviceN`
    let id: String
    /// The driver's name (the `name` file), or `?`.
    let name: String
    let kind: Kind
    /// The device's sysfs directory.
    let path: String

    /// `iio:device0 (bma400)`
    var label: String { "\(id) (\(name))" }

    /// The device to use: the first (by number) with a step counter, else the first with an
    /// accelerometer; nil when there is none (or the root is missing).
    static func find(root: String) -> IIODevice? {
        guard let dir = opendir(root) else { return nil }
        defer { closedir(dir) }
        var ids: [(Int, String)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("iio:device"), let n = Int(name.dropFirst(10)), n >= 0 else { continue }
            ids.append((n, name))
        }
        ids.sort { $0.0 < $1.0 }
        var accelerometer: IIODevice?
        for (_, id) in ids {
            let path = root + "/" + id
            let name = readText(path + "/name").map { String($0.prefix(64)) } ?? "?"
            if exists(path + "/in_steps_input") { return IIODevice(id: id, name: name, kind: .counter, path: path) }
            if accelerometer == nil, ["x", "y", "z"].allSatisfy({ exists(path + "/in_accel_\($0)_raw") }),
                exists(path + "/scan_elements")
            {
                accelerometer = IIODevice(id: id, name: name, kind: .accelerometer, path: path)
            }
        }
        return accelerometer
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// A small sysfs file's text, trimmed; nil if it cannot be read or is not short text.
    static func readText(_ path: String) -> String? {
        guard let bytes = try? FileIO.readAll(path, maxBytes: 4096),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let trimmed = text.trimmingWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Writes a sysfs attribute; returns false when refused.
    @discardableResult
    static func writeText(_ path: String, _ value: String) -> Bool {
        guard let fd = try? syscall("open \(path)", { open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) }) else {
            return false
        }
        defer { FileIO.close(fd) }
        let bytes = Array(value.utf8)
        return (try? syscall("write \(path)") { bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } })
            == bytes.count
    }

    /// A finite number in a sysfs file.
    static func readNumber(_ path: String) -> Double? {
        guard let text = readText(path), let v = Double(text), v.isFinite else { return nil }
        return v
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\n" || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\n" || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
