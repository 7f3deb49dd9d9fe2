extension JSONValue {
    /// Parses a whole document as `parse` does (same checks, same errors), except that the
    /// array under the top-level object's member `key` is not kept: each of its elements goes
    /// to `element` as soon as it is parsed, so a collection of thousands costs one element's
    /// tree at a time, not all of them at once. `begin` is called where that array starts, again
    /// if the name repeats (as in `parse`, the last one counts: start over). The value returned
    /// is the document with that member's array empty.
    public static func parse(
        _ bytes: [UInt8], streaming key: String, begin: @escaping () -> Void,
        element: @escaping (JSONValue) -> Void
    ) throws(ParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buf) throws(ParseError) -> JSONValue in
            var p = JSONParser(buf)
            p.skipSpace()
            let v: JSONValue
            if p.i < buf.count, buf[p.i] == UInt8(ascii: "{") {
                v = try p.object(depth: 1, streamed: key, begin: begin, each: element)
            } else {
                v = try p.value(depth: 0)
            }
            p.skipSpace()
            guard p.i == buf.count else { throw p.fail("unexpected data after the value") }
            return v
        }
    }
}

extension JSONValue: Encodable {

    /// Writes the value back as JSON; an object's members in the order of their names (it keeps
    /// no order of its own), so that one value always gives one line.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            try c.encode(n)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let o):
            var c = encoder.container(keyedBy: JSONKey.self)
            for k in o.keys.sorted() { try c.encode(o[k]!, forKey: JSONKey(stringValue: k)) }
        }
    }
}
