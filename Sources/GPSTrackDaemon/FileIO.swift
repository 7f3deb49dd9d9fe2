#if canImport(Glibc)
import Glibc
#endif
import GPSTrackCore

/// Whole-file reads and opens through the EINTR-safe `syscall` helper.
public enum FileIO {
    /// Opens `path` read-only.
    public static func openForReading(_ path: String) throws(ErrnoError) -> Int32 {
        try syscall("open \(path)") { open(path, O_RDONLY | O_CLOEXEC) }
    }

    /// Closes a descriptor, ignoring errors (there is nothing left to save).
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Reads the whole file, refusing files larger than `maxBytes`.
    public static func readAll(_ path: String, maxBytes: Int = 16 << 20) throws(ErrnoError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try syscall("read \(path)") { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > maxBytes { throw ErrnoError(call: "read \(path)", code: EFBIG) }
        }
    }

    /// Reads and parses a configuration file; every failure names the file (and line).
    public static func loadConfiguration(_ path: String) throws(ConfigError) -> Configuration {
        let bytes: [UInt8]
        do { bytes = try readAll(path) } catch {
            throw ConfigError(file: path, line: nil, message: "cannot read: \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: path, line: nil, message: "not UTF-8 text")
        }
        return try ConfigParser.parse(text, file: path)
    }
}
