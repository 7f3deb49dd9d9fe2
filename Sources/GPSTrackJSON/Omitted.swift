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

extension Double {
    /// Rounded to `decimals` places as every line writes it (no negative zero); nil stays nil.
    public func rounded(decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (self * scale).rounded() / scale
        return r == 0 ? 0 : r
    }
}
