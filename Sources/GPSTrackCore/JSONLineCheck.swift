/// Checks one line of gpsd JSON before anything in C sees it, and rewrites it compactly.
///
/// libgps's parser (`gps_unpack`) trusts its input: two objects joined by a bare CR make it
/// loop for ever, and it reads only gpsd's own compact form. So a line passes only when it is
/// exactly one JSON object, well-formed (strings, escapes, numbers, literals), nested at most
/// `maxDepth` deep, valid UTF-8, with no control character anywhere but as whitespace between
/// tokens, and within `maxBytes`. What passes comes back with the insignificant whitespace
/// removed, byte for byte what gpsd would have written.
public enum JSONLineCheck {
    /// What a line turned out to be.
    public enum Outcome: Equatable, Sendable {
        /// One well-formed object, compact.
        case object([UInt8])
        /// One well-formed object that came compact: the line itself is the object (only when
        /// the caller asked for no copy of a compact line, `copyCompact: false`).
        case asGiven
        /// Nothing but whitespace.
        case blank
        /// Anything else, with the reason.
        case malformed(String)
    }

    /// Deepest nesting accepted; gpsd's deepest report (SKY, DEVICES) nests three deep.
    public static let maxDepth = 8

    /// Checks `line` (without its newline) and returns it compact, or why it is refused.
    public static func check(_ line: ArraySlice<UInt8>, maxBytes: Int, maxDepth: Int = maxDepth) -> Outcome {
        var buffers = Buffers()
        return check(line, maxBytes: maxBytes, maxDepth: maxDepth, reusing: &buffers)
    }

    /// The storage of a check, kept between lines by a caller that checks many (the gpsd
    /// reader): once grown to the longest line, a check allocates nothing.
    public struct Buffers: Sendable {
        var out: [UInt8] = []
        var stack: [UInt8] = []
        public init() {}
        /// Room for a copy: zero as long as no line has needed one.
        public var copyCapacity: Int { out.capacity }
    }

    /// `check`, in `buffers`: the compact object returned shares their storage, so drop it
    /// before the next check. With `copyCompact` false a line that is compact already (gpsd
    /// writes no other) is `.asGiven`, not copied: the copy starts at the first insignificant
    /// whitespace, in the same single scan.
    public static func check(
        _ line: ArraySlice<UInt8>, maxBytes: Int, maxDepth: Int = maxDepth,
        reusing buffers: inout Buffers, copyCompact: Bool = true
    ) -> Outcome {
        guard line.count <= maxBytes else { return .malformed("line longer than \(maxBytes) bytes") }
        // gpsd's own lines (compact ASCII) go through a tight first pass that needs no buffers.
        if !copyCompact, line.withUnsafeBufferPointer({ isPlainCompact($0, maxDepth: maxDepth) }) {
            return .asGiven
        }
        // Taken out of `buffers` first, so each is uniquely held and emptied in place.
        var out = buffers.out
        var stack = buffers.stack
        buffers = Buffers()
        out.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        // Scanned through a buffer pointer: the slice's bounds checks on every byte were a
        // third of the check's time.
        let outcome = line.withUnsafeBufferPointer { raw in
            var scanner = Scanner(bytes: raw, maxDepth: maxDepth, copying: copyCompact, out: [], stack: [])
            swap(&scanner.out, &out)  // swapped, not copied: still uniquely held
            swap(&scanner.stack, &stack)
            let outcome = scanner.run()
            swap(&scanner.out, &out)
            swap(&scanner.stack, &stack)
            return outcome
        }
        buffers.out = out
        buffers.stack = stack
        return outcome
    }

    /// One line's scan (JSONLineCheck+Strings.swift has its strings).
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var i: Int
        /// Whether `out` is being written: from the start, or once whitespace shows that the
        /// line is not compact as it came.
        var copying: Bool
        var out: [UInt8]
        /// Open containers: `{` or `[`.
        var stack: [UInt8]

        init(
            bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, copying: Bool, out: consuming [UInt8],
            stack: consuming [UInt8]
        ) {
            self.bytes = bytes
            self.maxDepth = maxDepth
            self.copying = copying
            self.out = out
            self.stack = stack
            i = bytes.startIndex
            if copying { self.out.reserveCapacity(bytes.count) }
        }

        /// What may come next.
        enum Expect { case value, valueOrClose, key, keyOrClose, colon, commaOrClose }

        mutating func run() -> Outcome {
            skipSpace()
            guard i < bytes.endIndex else { return .blank }
            guard bytes[i] == UInt8(ascii: "{") else { return .malformed("not a JSON object") }
            var expect = Expect.value
            while true {
                skipSpace()
                guard i < bytes.endIndex else { return .malformed("the line ends inside the object") }
                let c = bytes[i]
                if c < 0x20 || c == 0x7F { return .malformed("control character 0x\(hex(c)) outside a string") }
                switch expect {
                case .value, .valueOrClose:
                    if c == UInt8(ascii: "]"), expect == .valueOrClose {
                        if let done = close(c) { return done }
                        expect = .commaOrClose
                    } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                        guard stack.count < maxDepth else { return .malformed("nested deeper than \(maxDepth)") }
                        stack.append(c)
                        emit(c)
                        expect = c == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
                    } else {
                        if let problem = scalar() { return .malformed(problem) }
                        expect = .commaOrClose
                    }
                case .key, .keyOrClose:
                    if c == UInt8(ascii: "}"), expect == .keyOrClose {
                        if let done = close(c) { return done }
                        expect = .commaOrClose
                    } else {
                        guard c == UInt8(ascii: "\"") else {
                            return .malformed("expected a member name at byte \(offset)")
                        }
                        if let problem = string() { return .malformed(problem) }
                        expect = .colon
                    }
                case .colon:
                    guard c == UInt8(ascii: ":") else { return .malformed("expected ':' at byte \(offset)") }
                    emit(c)
                    expect = .value
                case .commaOrClose:
                    if c == UInt8(ascii: ",") {
                        emit(c)
                        expect = stack.last == UInt8(ascii: "{") ? .key : .value
                    } else {
                        if let done = close(c) { return done }
                    }
                }
            }
        }

        var offset: Int { i - bytes.startIndex }

        /// Closes the innermost container with `c`; the outcome once the outermost is closed
        /// (nil while more must follow).
        mutating func close(_ c: UInt8) -> Outcome? {
            let want = stack.last == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            guard c == want else { return .malformed("unexpected '\(Character(Unicode.Scalar(c)))' at byte \(offset)") }
            stack.removeLast()
            emit(c)
            guard stack.isEmpty else { return nil }
            skipSpace()
            guard i == bytes.endIndex else {
                return .malformed(
                    bytes[i] == UInt8(ascii: "{")
                        ? "more than one JSON object on the line"
                        : "data after the JSON object at byte \(offset)")
            }
            return copying ? .object(out) : .asGiven
        }

        mutating func emit(_ c: UInt8) {
            if copying { out.append(c) }
            i += 1
        }

        mutating func skipSpace() {
            let from = i
            while i < bytes.endIndex {
                let c = bytes[i]
                guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { break }
                i += 1
            }
            if i > from, !copying {
                // Not compact after all: what came before the whitespace was, and is copied.
                out.reserveCapacity(bytes.count)
                out.append(contentsOf: bytes[bytes.startIndex..<from])
                copying = true
            }
        }

        /// A string, number or literal; the reason when it is not well formed.
        mutating func scalar() -> String? {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { return string() }
            if c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39) { return number() }
            for w in Self.literals {
                if bytes[i...].starts(with: w) {
                    for b in w { emit(b) }
                    return nil
                }
            }
            return "unexpected byte 0x\(hex(c)) at byte \(offset)"
        }

        /// A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        mutating func number() -> String? {
            let start = offset
            if bytes[i] == UInt8(ascii: "-") { emit(bytes[i]) }
            guard i < bytes.endIndex, isDigit(bytes[i]) else { return "bad number at byte \(start)" }
            if bytes[i] == 0x30 {
                emit(bytes[i])
                // Leading zeros are not JSON (and C's strtod would read them as octal-looking decimals).
                if i < bytes.endIndex, isDigit(bytes[i]) { return "bad number at byte \(start)" }
            } else {
                _ = digits()
            }
            if i < bytes.endIndex, bytes[i] == UInt8(ascii: ".") {
                emit(bytes[i])
                guard digits() > 0 else { return "bad number at byte \(start)" }
            }
            if i < bytes.endIndex, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                emit(bytes[i])
                if i < bytes.endIndex, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { emit(bytes[i]) }
                guard digits() > 0 else { return "bad number at byte \(start)" }
            }
            return nil
        }

        /// Copies a run of digits; how many.
        mutating func digits() -> Int {
            let first = i
            while i < bytes.endIndex, isDigit(bytes[i]) { i += 1 }
            // Copied at once: a byte at a time was most of the check's cost.
            if copying { out.append(contentsOf: bytes[first..<i]) }
            return i - first
        }

        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

        func hex(_ c: UInt8) -> String {
            let s = String(c, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
    }
}
