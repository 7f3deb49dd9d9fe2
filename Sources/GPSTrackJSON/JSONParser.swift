#if canImport(Glibc)
import Glibc
#endif

/// The parser behind `JSONValue.parse` (internal: `parse(_:streaming:begin:element:)` shares it).
struct JSONParser {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0

    init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

    func fail(_ reason: String) -> JSONValue.ParseError { JSONValue.ParseError(offset: i, reason: reason) }

    mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard i < b.count else { throw fail("unexpected end") }
        switch b[i] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONValue.ParseError) {
        let n = word.utf8CodeUnitCount
        guard b.count - i >= n else { throw fail("unexpected end") }
        for k in 0..<n where b[i + k] != word.utf8Start[k] { throw fail("unexpected character") }
        i += n
    }

    /// An array; with `each`, every element goes to it as soon as it is parsed and the array
    /// returned is empty (a long array then costs one element at a time).
    mutating func array(depth: Int, each: ((JSONValue) -> Void)? = nil) throws(JSONValue.ParseError) -> JSONValue {
        guard depth <= JSONValue.maxDepth else { throw fail("nested too deeply") }
        i += 1
        var out: [JSONValue] = []
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "]") {
            i += 1
            return .array(out)
        }
        while true {
            skipSpace()
            let element = try value(depth: depth)
            if let each { each(element) } else { out.append(element) }
            skipSpace()
            guard i < b.count else { throw fail("unexpected end") }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "]") {
                i += 1
                return .array(out)
            }
            throw fail("expected ',' or ']'")
        }
    }

    /// An object; an array under the name `streamed` (at this level only) goes element by
    /// element to `each`, after `begin`, and stays in the object as an empty array.
    mutating func object(
        depth: Int, streamed: String? = nil, begin: (() -> Void)? = nil,
        each: ((JSONValue) -> Void)? = nil
    ) throws(JSONValue.ParseError) -> JSONValue {
        guard depth <= JSONValue.maxDepth else { throw fail("nested too deeply") }
        i += 1
        var out: [String: JSONValue] = [:]
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "}") {
            i += 1
            return .object(out)
        }
        while true {
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a name") }
            let key = try string()
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
            skipSpace()
            if let each, key == streamed, i < b.count, b[i] == UInt8(ascii: "[") {
                begin?()
                out[key] = try array(depth: depth + 1, each: each)
            } else {
                out[key] = try value(depth: depth)
            }
            skipSpace()
            guard i < b.count else { throw fail("unexpected end") }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "}") {
                i += 1
                return .object(out)
            }
            throw fail("expected ',' or '}'")
        }
    }

    mutating func string() throws(JSONValue.ParseError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                guard let s = String(validating: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self) else {
                    throw fail("invalid UTF-8 in a string")
                }
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            guard c >= 0x20 else { throw fail("control character in a string") }
            i += 1
        }
        var bytes = Array(UnsafeBufferPointer(rebasing: b[start..<i]))
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: bytes, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
                return s
            }
            guard c >= 0x20 else { throw fail("control character in a string") }
            if c != UInt8(ascii: "\\") {
                bytes.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < b.count else { break }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(e)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard b.count - i >= 6, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw fail("unpaired surrogate")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid escape") }
                bytes.append(contentsOf: String(Character(u)).utf8)
            default:
                throw fail("invalid escape")
            }
        }
        throw fail("unterminated string")
    }

    mutating func hex4() throws(JSONValue.ParseError) -> UInt32 {
        guard b.count - i >= 4 else { throw fail("unexpected end") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private static let exact: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }

    /// A number by the JSON grammar. Up to 15 significant digits and a power of ten up to 22
    /// (most coordinates) are exact in one multiplication or division (Clinger's fast path);
    /// anything else goes to strtod.
    mutating func number() throws(JSONValue.ParseError) -> Double {
        let start = i
        var negative = false
        if b[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else { throw fail("invalid number") }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        if b[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(b[i] - UInt8(ascii: "0"))
                    if mantissa > 0 { digits += 1 }
                } else {
                    scale += 1
                }
                i += 1
            }
        }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else {
                throw fail("invalid number")
            }
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(b[i] - UInt8(ascii: "0"))
                    if mantissa > 0 { digits += 1 }
                    scale -= 1
                }
                i += 1
            }
        }
        var exponent = 0
        var exponentOK = true
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            var sign = 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                if b[i] == UInt8(ascii: "-") { sign = -1 }
                i += 1
            }
            guard i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else {
                throw fail("invalid number")
            }
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                if exponent < 100_000 {
                    exponent = exponent * 10 + Int(b[i] - UInt8(ascii: "0"))
                } else {
                    exponentOK = false
                }
                i += 1
            }
            exponent *= sign
        }
        let e = scale + exponent
        if exponentOK, digits <= 15, abs(e) <= 22 {
            let m = Double(mantissa)
            let v = e >= 0 ? m * Self.exact[e] : m / Self.exact[-e]
            return negative ? -v : v
        }
        // Rare: long mantissas, large exponents. strtod on a NUL-terminated copy.
        let count = i - start
        var text = [CChar](repeating: 0, count: count + 1)
        for k in 0..<count { text[k] = CChar(bitPattern: b[start + k]) }
        let v = strtod(text, nil)
        guard v.isFinite else { throw JSONValue.ParseError(offset: start, reason: "number out of range") }
        return v
    }
}
