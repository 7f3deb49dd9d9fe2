#if canImport(Glibc)
import Glibc
#endif
/// Cuts a byte stream into newline-terminated lines, whatever sizes the chunks arrive in. A
/// line longer than `maxLineBytes` is cut there and flagged (the rest, up to its newline, is
/// dropped), so a hostile stream cannot exhaust memory. Used for files and gpsd's socket alike.
public struct LineSplitter: Sendable {
    /// One line, without its newline.
    public struct Line: Sendable {
        /// 1-based number of the line in the stream.
        public var number: Int
        public var bytes: [UInt8]
        /// True when the line was longer than the limit and was cut.
        public var truncated: Bool
    }

    public let maxLineBytes: Int
    private var pending: [UInt8] = []
    private var truncated = false
    private var lines: [Line] = []
    private var next = 0
    private var lineNumber = 0

    public init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Adds bytes read from the stream.
    public mutating func append(_ chunk: some Collection<UInt8>) {
        // Contiguous bytes (every caller's) take the concrete path: a generic scan from
        // another module would call through witness tables for every byte.
        if chunk.withContiguousStorageIfAvailable({ append(bytes: $0) }) != nil { return }
        let copy = Array(chunk)
        copy.withUnsafeBufferPointer { append(bytes: $0) }
    }

    /// Adds bytes read from the stream (the concrete path).
    public mutating func append(bytes chunk: UnsafeBufferPointer<UInt8>) {
        if next == lines.count { lines.removeAll(keepingCapacity: true); next = 0 }
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count {
            let newline = memchr(base + start, 10, chunk.count - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base }
            let end = newline ?? chunk.count
            let room = maxLineBytes - pending.count
            let piece = UnsafeBufferPointer(rebasing: chunk[start..<end])
            if piece.count > room {
                truncated = true
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: piece.prefix(max(room, 0))))
            } else {
                pending.append(contentsOf: piece)
            }
            guard let newline else { return }
            finishLine()
            start = newline + 1
        }
    }

    /// The next complete line, or nil until more bytes arrive.
    public mutating func nextLine() -> Line? {
        guard next < lines.count else { return nil }
        next += 1
        return lines[next - 1]
    }

    /// At the end of the stream: the unterminated last line, if any.
    public mutating func finish() -> Line? {
        guard !pending.isEmpty || truncated else { return nil }
        finishLine()
        return nextLine()
    }

    /// Drops everything buffered (a new connection starts afresh).
    public mutating func reset() {
        pending.removeAll(keepingCapacity: true)
        truncated = false
        lines.removeAll(keepingCapacity: true)
        next = 0
    }

    private mutating func finishLine() {
        lineNumber += 1
        // The line takes the buffer; the next line starts a new one of its own size (keeping
        // the capacity would copy the whole buffer, the line still holding it).
        lines.append(Line(number: lineNumber, bytes: pending, truncated: truncated))
        pending = []
        truncated = false
    }
}
