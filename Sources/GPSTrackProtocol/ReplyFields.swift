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
