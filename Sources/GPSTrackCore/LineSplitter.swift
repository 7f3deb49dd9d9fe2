#if canImport(Glibc)
import Glibc
#endif
/// Cuts a byte stream into newline-terminated lines, whatever sizes the chunks arrive in. A
/// line longer than `maxLineBytes` is cut there and flagged (the rest, up to its newline, is
/// dropped), so a hostile stream cannot exhaust memory. Used for files and gpsd's socket alike.
/// The lines live in one buffer, reused from chunk to chunk: `nextSlice` hands a line out
/// without a copy (the gpsd reader's hot path allocates nothing per line).
public struct LineSplitter: Sendable {
    /// One line, without its newline.
    public struct Line: Sendable {
        /// 1-based number of the line in the stream.
        public var number: Int
        public var bytes: [UInt8]
        /// True when the line was longer than the limit and was cut.
        public var truncated: Bool
    }

    /// A complete line in `storage`, not yet handed out.
    private struct Span: Sendable {
        var end: Int
        var number: Int
        var truncated: Bool
    }

    public let maxLineBytes: Int
    /// The complete lines not yet handed out, then the line still waiting for its newline.
    private var storage: [UInt8] = []
    private var spans: [Span] = []
    private var next = 0
    /// Where the next line to hand out begins.
    private var lineStart = 0
    /// Where the line still waiting for its newline begins.
    private var pendingStart = 0
    private var truncated = false
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
        if next == spans.count && pendingStart > 0 {
            // Every complete line has been handed out: only the waiting line is kept.
            storage.removeSubrange(0..<pendingStart)
            spans.removeAll(keepingCapacity: true)
            next = 0
            lineStart = 0
            pendingStart = 0
        }
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count {
            let newline = memchr(base + start, 10, chunk.count - start).map {
                UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
            }
            let end = newline ?? chunk.count
            let room = maxLineBytes - (storage.count - pendingStart)
            let piece = UnsafeBufferPointer(rebasing: chunk[start..<end])
            if piece.count > room {
                truncated = true
                storage.append(contentsOf: UnsafeBufferPointer(rebasing: piece.prefix(max(room, 0))))
            } else {
                storage.append(contentsOf: piece)
            }
            guard let newline else { return }
            finishLine()
            start = newline + 1
        }
    }

    /// The next complete line, as a view into the splitter's buffer (no copy), or nil until
    /// more bytes arrive. Let go of the view before the next `append`, which reuses the buffer.
    public mutating func nextSlice() -> (bytes: ArraySlice<UInt8>, number: Int, truncated: Bool)? {
        guard next < spans.count else { return nil }
        let span = spans[next]
        next += 1
        let bytes = storage[lineStart..<span.end]
        lineStart = span.end
        return (bytes, span.number, span.truncated)
    }

    /// The next complete line, or nil until more bytes arrive.
    public mutating func nextLine() -> Line? {
        guard let line = nextSlice() else { return nil }
        return Line(number: line.number, bytes: Array(line.bytes), truncated: line.truncated)
    }

    /// At the end of the stream: the unterminated last line, if any.
    public mutating func finish() -> Line? {
        guard storage.count > pendingStart || truncated else { return nil }
        finishLine()
        return nextLine()
    }

    /// Drops everything buffered (a new connection starts afresh).
    public mutating func reset() {
        storage.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        next = 0
        lineStart = 0
        pendingStart = 0
        truncated = false
    }

    private mutating func finishLine() {
        lineNumber += 1
        spans.append(Span(end: storage.count, number: lineNumber, truncated: truncated))
        pendingStart = storage.count
        truncated = false
    }
}
