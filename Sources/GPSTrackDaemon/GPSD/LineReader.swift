import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Reads newline-separated lines from a file descriptor in large chunks through a
/// `LineSplitter` (the same cutting the live gpsd source uses). Lines longer than
/// `maxLineBytes` are cut off and flagged, so a hostile file cannot exhaust memory.
public struct LineReader: ~Copyable {
    public typealias Line = LineSplitter.Line

    public var maxLineBytes: Int { splitter.maxLineBytes }
    private let fd: Int32
    private var buffer: [UInt8]
    private var splitter: LineSplitter
    private var eof = false

    public init(fd: Int32, maxLineBytes: Int = 1 << 20, chunk: Int = 1 << 16) {
        self.fd = fd
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
        buffer = [UInt8](repeating: 0, count: max(chunk, 1024))
    }

    /// The next line as a view into the reader's buffer (no copy: replay's hot path), valid
    /// until the next call; nil at the end of the input.
    public mutating func nextSlice() throws(ErrnoError) -> (bytes: ArraySlice<UInt8>, number: Int, truncated: Bool)? {
        while true {
            if let line = splitter.nextSlice() { return line }
            if eof { return splitter.finish().map { ($0.bytes[...], $0.number, $0.truncated) } }
            try fill()
        }
    }

    /// The next line, or nil at the end of the input.
    public mutating func next() throws(ErrnoError) -> Line? {
        while true {
            if let line = splitter.nextLine() { return line }
            if eof { return splitter.finish() }
            try fill()
        }
    }

    /// Reads the next chunk into the splitter.
    private mutating func fill() throws(ErrnoError) {
        let fd = self.fd
        let count = try syscall("read") {
            buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        }
        if count == 0 { eof = true } else { splitter.append(buffer[0..<count]) }
    }
}
