/// The strings of a line's scan: escapes, control characters and UTF-8, checked as they are copied
/// (or only checked, while the line is still compact as it came).
extension JSONLineCheck.Scanner {
    /// A string with its quotes: escapes from JSON's list, no raw control characters,
    /// valid UTF-8.
    mutating func string() -> String? {
        let start = offset
        emit(bytes[i])  // the opening quote
        while i < bytes.endIndex {
            // A run of plain ASCII (no quote, backslash or control character) is copied at once.
            var j = i
            while j < bytes.endIndex {
                let c = bytes[j]
                if c < 0x20 || c >= 0x7F || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { break }
                j += 1
            }
            if j > i {
                if copying { out.append(contentsOf: bytes[i..<j]) }
                i = j
                continue
            }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                emit(c)
                return nil
            }
            if c < 0x20 || c == 0x7F { return "control character 0x\(hex(c)) in a string at byte \(offset)" }
            if c == UInt8(ascii: "\\") {
                emit(c)
                guard i < bytes.endIndex else { break }
                let e = bytes[i]
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    emit(e)
                case UInt8(ascii: "u"):
                    emit(e)
                    for _ in 0..<4 {
                        guard i < bytes.endIndex, isHex(bytes[i]) else { return "bad \\u escape at byte \(offset)" }
                        emit(bytes[i])
                    }
                default:
                    return "bad escape at byte \(offset)"
                }
                continue
            }
            if c < 0x80 {
                emit(c)
                continue
            }
            guard let n = utf8Length(at: i) else { return "invalid UTF-8 at byte \(offset)" }
            for _ in 0..<n { emit(bytes[i]) }
        }
        return "unterminated string from byte \(start)"
    }

    /// JSON's literals, made once (an array each, each time, was an allocation a literal).
    static let literals = [Array("true".utf8), Array("false".utf8), Array("null".utf8)]

    func isHex(_ c: UInt8) -> Bool {
        isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }

    /// Length of the well-formed UTF-8 sequence at `j` (no overlongs, surrogates or
    /// code points past U+10FFFF), or nil.
    func utf8Length(at j: Int) -> Int? {
        let b0 = bytes[j]
        let n: Int
        var lo: UInt8 = 0x80
        var hi: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: n = 2
        case 0xE0:
            n = 3
            lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: n = 3
        case 0xED:
            n = 3
            hi = 0x9F
        case 0xF0:
            n = 4
            lo = 0x90
        case 0xF1...0xF3: n = 4
        case 0xF4:
            n = 4
            hi = 0x8F
        default: return nil
        }
        guard j + n <= bytes.endIndex else { return nil }
        for k in 1..<n {
            let b = bytes[j + k]
            let (l, h) = k == 1 ? (lo, hi) : (UInt8(0x80), UInt8(0xBF))
            guard b >= l && b <= h else { return nil }
        }
        return n
    }
}
