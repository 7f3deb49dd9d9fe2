/// A JSON value carried through as it is: the daemon writes stored event lines verbatim (their
/// number formatting untouched), a client reads them as a `JSONValue`.
public struct JSONFragment: Codable, Sendable, Equatable {
    /// The JSON text, as written.
    public let text: String
    /// The value, as read (parsed from `text` when built from text).
    public let value: JSONValue

    /// A fragment from JSON text the caller vouches for (it came from a JSON writer).
    public init(text: String) {
        self.text = text
        value = (try? JSONValue.parse(Array(text.utf8))) ?? .null
    }

    init(_ value: JSONValue) {
        self.value = value
        text = JSONFragment.write(value)
    }

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
