/// A JSON value carried through as it is: the daemon writes stored event lines verbatim (their
/// number formatting untouched, nothing parsed), a client reads them as a `JSONValue`.
public struct JSONFragment: Codable, Sendable, Equatable {
    private enum Storage: Sendable { case text(String), value(JSONValue) }
    private let storage: Storage

    /// A fragment from JSON text the caller vouches for (it came from a JSON writer).
    public init(text: String) { storage = .text(text) }

    init(_ value: JSONValue) { storage = .value(value) }

    /// The JSON text: as given, or written from the value read.
    public var text: String {
        switch storage {
        case .text(let t): t
        case .value(let v): Self.write(v)
        }
    }

    /// The value: as read, or parsed from the text given (null if it is not JSON).
    public var value: JSONValue {
        switch storage {
        case .text(let t): (try? JSONValue.parse(Array(t.utf8))) ?? .null
        case .value(let v): v
        }
    }

    public static func == (a: JSONFragment, b: JSONFragment) -> Bool { a.value == b.value }

    public init(from decoder: any Decoder) throws {
        // Only ReplyDecoder reads fragments; anything else sees an object it cannot keep.
        throw ReplyDecoder.ReplyError(path: ReplyDecoder.path(decoder.codingPath), reason: "is a JSON fragment")
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)   // ReplyEncoder writes the text itself; another encoder gets a string
    }

    static func write(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return JSONObject.number(n)
        case .string(let s): return JSONObject.quote(s)
        case .array(let a): return "[" + a.map(write).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.keys.sorted().map { JSONObject.quote($0) + ":" + write(o[$0]!) }.joined(separator: ",") + "}"
        }
    }
}

/// A field left out of the reply when nil (where `null` would be the default), as the socket
/// has always left out, say, `after_trip` for a stop before any trip.
@propertyWrapper
public struct Omitted<Value: Codable & Sendable>: Codable, Sendable {
    public var wrappedValue: Value?
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension Omitted: Equatable where Value: Equatable {}

extension KeyedEncodingContainer {
    /// Writes an `@Omitted` field only when it has a value.
    public mutating func encode<V>(_ field: Omitted<V>, forKey key: Key) throws {
        if let v = field.wrappedValue { try encode(v, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// Reads an `@Omitted` field: absent is nil; present, it is read as `V` (null only if `V`
    /// is itself optional, like `current_trip`, null between trips).
    public func decode<V>(_ type: Omitted<V>.Type, forKey key: Key) throws -> Omitted<V> {
        guard contains(key) else { return Omitted(wrappedValue: nil) }
        return Omitted(wrappedValue: try decode(V.self, forKey: key))
    }
}

/// Counts by name, written in the names' order (`{"stale":2,"too_fast":1}`).
public struct NamedCounts: Codable, Sendable, Equatable {
    public var counts: [String: Int]
    public init(_ counts: [String: Int] = [:]) { self.counts = counts }

    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Name.self)
        counts = [:]
        for k in c.allKeys { counts[k.stringValue] = try c.decode(Int.self, forKey: k) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Name.self)
        for name in counts.keys.sorted() { try c.encode(counts[name]!, forKey: Name(stringValue: name)) }
    }
}

extension Double {
    /// Rounded to `decimals` places as the socket writes it (no negative zero); nil stays nil.
    public func rounded(decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (self * scale).rounded() / scale
        return r == 0 ? 0 : r
    }
}
