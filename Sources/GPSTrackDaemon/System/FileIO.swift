import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

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

    /// Reads the whole file, refusing files larger than `maxBytes`, and (with `regularOnly`)
    /// anything but a regular file: a directory, a device such as /dev/zero, a FIFO.
    public static func readAll(_ path: String, maxBytes: Int = 16 << 20, regularOnly: Bool = false) throws(FileError)
        -> [UInt8]
    {
        // Non-blocking, so that a FIFO without a writer is refused rather than waited on.
        let flags = O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0)
        let fd: Int32
        do { fd = try syscall("open \(path)") { open(path, flags) } } catch { throw .system(error) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 {
            let kind = st.st_mode & S_IFMT
            if kind == S_IFDIR { throw .notRegular("a directory") }
            if regularOnly && kind != S_IFREG {
                throw .notRegular(
                    kind == S_IFCHR
                        ? "a character device"
                        : kind == S_IFBLK
                            ? "a block device"
                            : kind == S_IFIFO ? "a FIFO" : kind == S_IFSOCK ? "a socket" : "not a regular file")
            }
        }
        do { return try readRest(fd, path: path, maxBytes: maxBytes) } catch { throw .system(error) }
    }

    private static func readRest(_ fd: Int32, path: String, maxBytes: Int) throws(ErrnoError) -> [UInt8] {
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
        return try ConfigParser.parse(bytes, file: path)
    }
}

/// Why a whole-file read failed.
public enum FileError: Error, Sendable, CustomStringConvertible {
    /// A system call failed (no such file, permission denied, too large).
    case system(ErrnoError)
    /// The path names something other than a regular file; what it is.
    case notRegular(String)

    public var description: String {
        switch self {
        case .system(let e): "\(e)"
        case .notRegular(let what): "not a regular file (\(what))"
        }
    }
}
