#if canImport(Glibc)
import Glibc
#endif

/// Any JSON value (RFC 8259), read by a small parser of its own: one pass over the bytes, no
/// intermediate tree (Foundation's `JSONDecoder` spent most of a 10,000-fence file's load time
/// building one). Hostile input is refused, never trusted: nesting deeper than `maxDepth`,
/// invalid UTF-8, control characters in strings, numbers outside the grammar or beyond Double's
/// range, and anything after the value.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Deepest nesting of arrays and objects accepted.
    public static let maxDepth = 512

    /// Why a document is not valid JSON, with the byte offset.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Parses a whole document. Duplicate names in an object: the last one counts.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buf) throws(ParseError) -> JSONValue in
            var p = JSONParser(buf)
            p.skipSpace()
            let v = try p.value(depth: 0)
            p.skipSpace()
            guard p.i == buf.count else { throw p.fail("unexpected data after the value") }
            return v
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}
