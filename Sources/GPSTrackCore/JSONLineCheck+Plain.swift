/// The check's fast path for the lines gpsd writes: compact, printable ASCII, no escapes.
extension JSONLineCheck {
    /// Whether `bytes` is one well-formed object as gpsd writes it: no whitespace between
    /// tokens, strings of printable ASCII without escapes, nested at most `maxDepth` deep. One
    /// tight pass: the open containers held in bits, no copy, no message. True only for a line
    /// the full scan takes as it is (`.asGiven`); false says only "not that simple", and the
    /// full scan decides, with its reason. The gpsd-line fuzz harness holds the two to that.
    static func isPlainCompact(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Bool {
        guard let p = bytes.baseAddress, maxDepth >= 1, maxDepth <= 62 else { return false }
        var scan = PlainScan(p: p, n: bytes.count)
        return scan.run(maxDepth: maxDepth)
    }

    /// One line's fast pass.
    struct PlainScan {
        let p: UnsafePointer<UInt8>
        let n: Int
        var i = 0
        var depth = 0
        /// Bit d - 1 set: the container open at depth d is an object.
        var objects: UInt64 = 0

        /// What may come next.
        enum Expect { case keyOrClose, key, valueOrClose, value, commaOrClose }

        mutating func run(maxDepth: Int) -> Bool {
            guard n >= 2, p[0] == UInt8(ascii: "{") else { return false }
            i = 1
            depth = 1
            objects = 1
            var expect = Expect.keyOrClose
            while i < n {
                let c = p[i]
                switch expect {
                case .keyOrClose, .key:
                    if c == UInt8(ascii: "}"), expect == .keyOrClose {
                        guard close(c) else { return false }
                        expect = .commaOrClose
                    } else {
                        guard c == UInt8(ascii: "\""), let end = stringEnd(i), end < n, p[end] == UInt8(ascii: ":")
                        else { return false }
                        i = end + 1
                        expect = .value
                    }
                case .valueOrClose, .value:
                    if c == UInt8(ascii: "]"), expect == .valueOrClose {
                        guard close(c) else { return false }
                        expect = .commaOrClose
                    } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                        guard depth < maxDepth else { return false }
                        let bit: UInt64 = 1 << UInt64(truncatingIfNeeded: depth)
                        objects = c == UInt8(ascii: "{") ? objects | bit : objects & ~bit
                        depth += 1
                        i += 1
                        expect = c == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
                    } else {
                        guard let end = scalarEnd(i) else { return false }
                        i = end
                        expect = .commaOrClose
                    }
                case .commaOrClose:
                    if c == UInt8(ascii: ",") {
                        i += 1
                        expect = isObject ? .key : .value
                    } else {
                        guard close(c) else { return false }
                    }
                }
                // The outermost object closed: the line must end with it.
                if depth == 0 { return i == n }
            }
            return false
        }

        var isObject: Bool { objects & (1 << UInt64(truncatingIfNeeded: depth - 1)) != 0 }

        /// Closes the innermost container with `c` when `c` is its bracket.
        @inline(__always)
        mutating func close(_ c: UInt8) -> Bool {
            guard c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
            depth -= 1
            i += 1
            return true
        }

        /// The index after the plain string opening at `j`.
        @inline(__always)
        func stringEnd(_ j: Int) -> Int? {
            var k = j + 1
            while k < n {
                let c = p[k]
                if c == UInt8(ascii: "\"") { return k + 1 }
                guard c >= 0x20, c < 0x7F, c != UInt8(ascii: "\\") else { return nil }
                k += 1
            }
            return nil
        }

        /// The index after the string, number or literal at `j`.
        @inline(__always)
        func scalarEnd(_ j: Int) -> Int? {
            let c = p[j]
            if c == UInt8(ascii: "\"") { return stringEnd(j) }
            if c == UInt8(ascii: "-") || isDigit(c) { return numberEnd(j) }
            let w: StaticString
            switch c {
            case UInt8(ascii: "t"): w = "true"
            case UInt8(ascii: "f"): w = "false"
            case UInt8(ascii: "n"): w = "null"
            default: return nil
            }
            return matches(j, w) ? j + w.utf8CodeUnitCount : nil
        }

        func matches(_ j: Int, _ w: StaticString) -> Bool {
            let count = w.utf8CodeUnitCount
            guard j + count <= n else { return false }
            for k in 0..<count where p[j + k] != w.utf8Start[k] { return false }
            return true
        }

        /// The index after the number at `j`: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        @inline(__always)
        func numberEnd(_ j: Int) -> Int? {
            var k = j
            if p[k] == UInt8(ascii: "-") { k += 1 }
            guard k < n, isDigit(p[k]) else { return nil }
            if p[k] == UInt8(ascii: "0") {
                k += 1
            } else {
                k = digitsEnd(k)
            }
            if k < n, p[k] == UInt8(ascii: ".") {
                let from = k + 1
                k = digitsEnd(from)
                guard k > from else { return nil }
            }
            if k < n, p[k] | 0x20 == UInt8(ascii: "e") {
                k += 1
                if k < n, p[k] == UInt8(ascii: "+") || p[k] == UInt8(ascii: "-") { k += 1 }
                let from = k
                k = digitsEnd(from)
                guard k > from else { return nil }
            }
            // A digit left after a leading zero is neither a comma nor a bracket: refused next.
            return k
        }

        @inline(__always)
        func digitsEnd(_ j: Int) -> Int {
            var k = j
            while k < n, isDigit(p[k]) { k += 1 }
            return k
        }

        @inline(__always)
        func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
    }
}
