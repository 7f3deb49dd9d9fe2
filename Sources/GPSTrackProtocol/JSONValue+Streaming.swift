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
