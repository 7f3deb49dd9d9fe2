#if canImport(Glibc)
import Glibc
#endif

/// Reads newline-separated lines from a file descriptor in large chunks. Lines longer than
/// `maxLineBytes` are cut off and flagged, so a hostile file cannot exhaust memory.
public struct LineReader: ~Copyable {
    /// One line, without its newline.
    public struct Line {
        public var number: Int
        public var bytes: [UInt8]
        /// True when the line was longer than the limit and was cut.
        public var truncated: Bool
    }

    public let maxLineBytes: Int
    private let fd: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var eof = false
    private var lineNumber = 0

    public init(fd: Int32, maxLineBytes: Int = 1 << 20, chunk: Int = 1 << 16) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
        buffer = [UInt8](repeating: 0, count: max(chunk, 1024))
    }

    /// The next line, or nil at the end of the input.
    public mutating func next() throws(ErrnoError) -> Line? {
        var line: [UInt8] = []
        var truncated = false
        while true {
            if start < end {
                let found = buffer[start..<end].firstIndex(of: 10)
                let stop = found ?? end
                let room = maxLineBytes - line.count
                if room > 0 { line.append(contentsOf: buffer[start..<min(stop, start + room)]) }
                if stop - start > room { truncated = true }
                start = stop
                if found != nil {
                    start += 1
                    lineNumber += 1
                    return Line(number: lineNumber, bytes: line, truncated: truncated)
                }
            }
            if eof {
                if line.isEmpty && !truncated { return nil }
                lineNumber += 1
                return Line(number: lineNumber, bytes: line, truncated: truncated)
            }
            start = 0
            let fd = self.fd
            let count = try syscall("read") {
                buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            }
            end = count
            if count == 0 { eof = true }
        }
    }
}
