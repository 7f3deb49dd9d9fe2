/// Writes a reply type as one line of JSON, the way the control socket always has: keys in the
/// order the type declares them, a nil optional as `null` (unless marked `@Omitted`), numbers as
/// `number` writes them (`12.0`, `3`; NaN and infinity as `null`). The one JSON writer: every
/// line the daemon and gpstrackctl write (replies, events, OwnTracks, OsmAnd, exports) is a
/// Codable value encoded here.
/// Foundation's JSONEncoder writes none of these the same, so the line would change under the tests.
public enum ReplyEncoder {
    /// The value as one line of JSON.
    public static func encode<T: Encodable>(_ value: T) -> String {
        let slot = Slot()
        // The types of this module never throw while encoding; a bug would answer an error, not crash.
        do { try slot.store(value) } catch { return #"{"ok":false,"error":"# + quote("cannot encode: \(error)") + "}" }
        // Bytes, made a string once: appending the line's thirty-odd pieces to a String cost
        // a tenth of a replay's encoding.
        var out: [UInt8] = []
        out.reserveCapacity(256)
        slot.write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A number as every line writes it: `12.0`, `3.25`; NaN and infinity as `null`; rounded to
    /// `decimals` places when given (no negative zero). Also for journal fields and GPX, so that
    /// they read as the JSON does.
    public static func number(_ value: Double?, decimals: Int? = nil) -> String {
        guard let value, value.isFinite else { return "null" }
        guard let decimals else { return value.description }
        return value.rounded(decimals: decimals).description
    }

    /// A string as JSON writes it (RFC 8259 escapes), quotes included.
    public static func quote(_ s: String) -> String {
        var out: [UInt8] = []
        quote(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `quote(s)` appended to `out`: a string with nothing to escape (the keys, gpsd's paths, the
    /// fences' names, almost every value) is appended whole. Only ASCII bytes are ever escaped,
    /// so the escapes go byte by byte (a multi-byte character's bytes are all 0x80 or more).
    static func quote(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                escape(bytes, into: &out)
                return
            }
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
        }
    }

    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
            case UInt8(ascii: "\r"): out += Array(#"\r"#.utf8)
            case UInt8(ascii: "\t"): out += Array(#"\t"#.utf8)
            case ..<0x20:
                // \u00XX in lower case; the high digit is 0 or 1.
                let low = byte & 15
                out += Array(#"\u00"#.utf8)
                out += [
                    UInt8(ascii: "0") + byte >> 4, low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10,
                ]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// One value being built: a literal, an object (keys in order) or an array. A class, so that
/// nested containers fill their part in place; scalars are kept as their text, not as slots of
/// their own (a 10,000-fence reply has 60,000 of them).
final class Slot {
    enum Kind { case literal, object, array }
    enum Child {
        case literal(String)
        case slot(Slot)
    }
    private(set) var kind = Kind.literal
    private var text = "null"
    private var keys: [String] = []
    private var children: [Child] = []

    var count: Int { children.count }

    func set(_ literal: String) {
        kind = .literal
        text = literal
        keys = []
        children = []
    }

    func become(_ k: Kind) {
        guard kind != k else { return }
        kind = k
        keys = []
        children = []
        // Room for a line's members at once, not grown one reallocation at a time.
        if k == .object {
            keys.reserveCapacity(8)
            children.reserveCapacity(8)
        }
    }

    func store<T: Encodable>(_ v: T) throws {
        try v.encode(to: SlotEncoder(slot: self, codingPath: []))
    }

    /// Adds `key` with a scalar's text. (Codable's synthesized code writes each key once.)
    func add(_ key: String, _ literal: String) {
        become(.object)
        keys.append(key)
        children.append(.literal(literal))
    }

    /// Adds `key` with a value to build.
    func child(_ key: String) -> Slot {
        become(.object)
        let s = Slot()
        keys.append(key)
        children.append(.slot(s))
        return s
    }

    func append(_ literal: String) {
        become(.array)
        children.append(.literal(literal))
    }

    func element() -> Slot {
        become(.array)
        let s = Slot()
        children.append(.slot(s))
        return s
    }

    func write(into out: inout [UInt8]) {
        switch kind {
        case .literal: out.append(contentsOf: text.utf8)
        case .object:
            out.append(UInt8(ascii: "{"))
            for i in children.indices {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                ReplyEncoder.quote(keys[i], into: &out)
                out.append(UInt8(ascii: ":"))
                Self.write(children[i], into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array:
            out.append(UInt8(ascii: "["))
            for i in children.indices {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(children[i], into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    private static func write(_ c: Child, into out: inout [UInt8]) {
        switch c {
        case .literal(let t): out.append(contentsOf: t.utf8)
        case .slot(let s): s.write(into: &out)
        }
    }

    static func literal(_ v: Bool) -> String { v ? "true" : "false" }
    static func literal(_ v: Double) -> String { ReplyEncoder.number(v) }
    static func literal<I: BinaryInteger>(_ v: I) -> String { String(v) }
}

struct SlotEncoder: Encoder {
    let slot: Slot
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.become(.object)
        return KeyedEncodingContainer(Keyed(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.become(.array)
        return Unkeyed(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(slot: slot, codingPath: codingPath) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { slot.add(key.stringValue, "null") }
    mutating func encode(_ value: Bool, forKey key: Key) throws { slot.add(key.stringValue, Slot.literal(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        slot.add(key.stringValue, ReplyEncoder.quote(value))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { slot.add(key.stringValue, Slot.literal(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { slot.add(key.stringValue, Slot.literal(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { slot.add(key.stringValue, Slot.literal(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { slot.add(key.stringValue, Slot.literal(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { slot.add(key.stringValue, Slot.literal(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try slot.child(key.stringValue).store(value)
    }

    // A nil optional is written as null: the socket has always said `"fix":null`, not nothing.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        slot.add(key.stringValue, value.map(Slot.literal) ?? "null")
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        slot.add(key.stringValue, value.map(ReplyEncoder.quote) ?? "null")
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        slot.add(key.stringValue, value.map(Slot.literal) ?? "null")
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        try encodeIfPresent(value.map(Double.init), forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        slot.add(key.stringValue, value.map(Slot.literal) ?? "null")
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        try encodeIfPresent(value.map(Int.init), forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        try encodeIfPresent(value.map(Int.init), forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        try encodeIfPresent(value.map(Int.init), forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        slot.add(key.stringValue, value.map(Slot.literal) ?? "null")
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        slot.add(key.stringValue, value.map(Slot.literal) ?? "null")
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        try encodeIfPresent(value.map(Int.init), forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        try encodeIfPresent(value.map(Int.init), forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        try encodeIfPresent(value.map(Int.init), forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        slot.add(key.stringValue, value.map(Slot.literal) ?? "null")
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try slot.child(key.stringValue).store(value) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        SlotEncoder(slot: slot.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: slot.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { SlotEncoder(slot: slot.child("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        SlotEncoder(slot: slot.child(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let slot: Slot
    var codingPath: [any CodingKey]
    var count: Int { slot.count }

    mutating func encodeNil() throws { slot.append("null") }
    mutating func encode<T: Encodable>(_ value: T) throws { try slot.element().store(value) }
    mutating func encode(_ value: Bool) throws { slot.append(Slot.literal(value)) }
    mutating func encode(_ value: String) throws { slot.append(ReplyEncoder.quote(value)) }
    mutating func encode(_ value: Double) throws { slot.append(Slot.literal(value)) }
    mutating func encode(_ value: Int) throws { slot.append(Slot.literal(value)) }
    mutating func encode(_ value: Int64) throws { slot.append(Slot.literal(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        SlotEncoder(slot: slot.element(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: slot.element(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { SlotEncoder(slot: slot.element(), codingPath: codingPath) }
}

private struct Single: SingleValueEncodingContainer {
    let slot: Slot
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.set("null") }
    mutating func encode(_ value: Bool) throws { slot.set(Slot.literal(value)) }
    mutating func encode(_ value: String) throws { slot.set(ReplyEncoder.quote(value)) }
    mutating func encode(_ value: Double) throws { slot.set(Slot.literal(value)) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { slot.set(Slot.literal(value)) }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { slot.set(Slot.literal(value)) }
    mutating func encode(_ value: UInt) throws { slot.set(Slot.literal(value)) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt64) throws { slot.set(Slot.literal(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try slot.store(value) }
}
