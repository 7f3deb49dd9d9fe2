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
        if next == lines.count { lines.removeAll(keepingCapacity: true); next = 0 }
        var rest = chunk[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: 10)
            let piece = rest[..<(newline ?? rest.endIndex)]
            let room = maxLineBytes - pending.count
            if piece.count > room {
                truncated = true
                pending.append(contentsOf: piece.prefix(max(room, 0)))
            } else {
                pending.append(contentsOf: piece)
            }
            guard let newline else { return }
            finishLine()
            rest = rest[rest.index(after: newline)...]
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
        lines.append(Line(number: lineNumber, bytes: pending, truncated: truncated))
        pending.removeAll(keepingCapacity: true)
        truncated = false
    }
}
