import Foundation

/// Counts the opens of a directory (inotify's IN_OPEN): how a test sees the daemon's rescans of
/// its IIO tree, the retries of a lost pedometer, instead of sleeping for them.
final class DirectoryOpens {
    private let fd: Int32
    private var seen = 0

    init(_ path: String) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0, inotify_add_watch(fd, path, UInt32(IN_OPEN)) >= 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }

    /// Opens of the directory itself seen so far (an event naming a file in it is not one).
    var count: Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var at = 0
            while at + MemoryLayout<inotify_event>.size <= n {
                // inotify_event.len
                let length = buffer.withUnsafeBytes { $0.load(fromByteOffset: at + 12, as: UInt32.self) }
                at += MemoryLayout<inotify_event>.size + Int(length)
                if length == 0 { seen += 1 }
            }
        }
        return seen
    }

    deinit { close(fd) }
}
