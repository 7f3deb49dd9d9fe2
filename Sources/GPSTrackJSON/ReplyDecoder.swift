/// Reads a reply type out of a parsed JSON line. A missing or mistyped field is a `ReplyError`
/// naming the field's path (`gpsd.connected`), never a trap: the daemon on the other end may be
/// another version, or not gpstrackd at all.
public enum ReplyDecoder {
    /// Why a reply line does not read as the type expected.
    public struct ReplyError: Error, Sendable, CustomStringConvertible {
        /// Where in the reply, e.g. `fix.lat` or `trips[2].id`; empty for the whole line.
        public var path: String
        public var reason: String
        public var description: String { path.isEmpty ? reason : "\"\(path)\" \(reason)" }
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(ReplyError) -> T {
        do { return try ValueDecoder(value: value, codingPath: []).decodeValue(type) } catch let e as ReplyError {
            throw e
        } catch {
            throw ReplyError(path: "", reason: "\(error)")
        }
    }

    /// Parses a line, then reads it.
    public static func decode<T: Decodable>(_ type: T.Type, line: String) throws(ReplyError) -> T {
        let value: JSONValue
        do { value = try JSONValue.parse(Array(line.utf8)) } catch {
            throw ReplyError(path: "", reason: "is not JSON: \(error)")
        }
        return try decode(type, from: value)
    }

    /// A coding path as a reply error names it: `trips[2].id`.
    public static func path(_ codingPath: [any CodingKey]) -> String {
        var s = ""
        for k in codingPath {
            if let i = k.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + k.stringValue }
        }
        return s
    }
}

private struct Index: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ i: Int) { intValue = i }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func fail(_ reason: String) -> ReplyDecoder.ReplyError {
        ReplyDecoder.ReplyError(path: ReplyDecoder.path(codingPath), reason: reason)
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let o) = value else { throw fail(value == .null ? "is missing (null)" : "is not an object") }
        return KeyedDecodingContainer(KeyedReader(object: o, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let a) = value else { throw fail(value == .null ? "is missing (null)" : "is not an array") }
        return ArrayReader(items: a, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let b) = value else { throw fail("is not true or false") }
        return b
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let s) = value else { throw fail("is not a string") }
        return s
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let n) = value else { throw fail("is not a number") }
        return n
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let n) = value else { throw fail("is not a number") }
        guard n == n.rounded(), let i = I(checking: n) else { throw fail("is not a whole number in range") }
        return i
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

private struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSONValue]
    var codingPath: [any CodingKey]
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func field(_ key: Key) throws -> ValueDecoder {
        guard let v = object[key.stringValue] else {
            throw ReplyDecoder.ReplyError(path: ReplyDecoder.path(codingPath + [key]), reason: "is missing")
        }
        return ValueDecoder(value: v, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try field(key).decodeNil() }

    // An optional must be there, null or not: the daemon writes every field it has (`@Omitted`
    // ones aside), so a missing one is a renamed or lost field, not a nil.
    private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let f = try field(key)
        return f.decodeNil() ? nil : try f.decodeValue(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try field(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try field(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try field(key).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(object), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try field(key) }
}

private struct ArrayReader: UnkeyedDecodingContainer {
    let items: [JSONValue]
    var codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    private mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw ReplyDecoder.ReplyError(
                path: ReplyDecoder.path(codingPath + [Index(currentIndex)]), reason: "is missing")
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: items[currentIndex], codingPath: codingPath + [Index(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
