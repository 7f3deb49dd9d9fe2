/// One IIO scan element's storage, as `scan_elements/*_type` describes it:
/// `[be|le]:[s|u]REALBITS/STORAGEBITS[XREPEAT]>>SHIFT` (for example `le:s16/16>>0`).
public struct IIOScanType: Sendable, Equatable {
    public var bigEndian: Bool
    public var signed: Bool
    public var realBits: Int
    public var storageBits: Int
    public var shift: Int
    public var repeatCount: Int

    public init(bigEndian: Bool, signed: Bool, realBits: Int, storageBits: Int, shift: Int, repeatCount: Int) {
        self.bigEndian = bigEndian
        self.signed = signed
        self.realBits = realBits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Bytes one element takes in a scan record.
    public var bytes: Int { storageBits / 8 * repeatCount }

    /// Parses a type line; nil for anything the kernel would not write.
    public static func parse(_ text: String) -> IIOScanType? {
        var s = Substring(text)
        while let c = s.last, c == "\n" || c == " " || c == "\r" { s.removeLast() }
        let big: Bool
        if s.hasPrefix("be:") { big = true } else if s.hasPrefix("le:") { big = false } else { return nil }
        s = s.dropFirst(3)
        guard let sign = s.first, sign == "s" || sign == "u" else { return nil }
        s = s.dropFirst()
        guard let slash = s.firstIndex(of: "/"), let gt = s.firstIndex(of: ">"), s[gt...].hasPrefix(">>") else {
            return nil
        }
        let shiftMark = gt..<s.index(gt, offsetBy: 2)
        guard let real = Self.number(s[..<slash]) else { return nil }
        var storagePart = s[s.index(after: slash)..<shiftMark.lowerBound]
        var repeatCount = 1
        if let x = storagePart.firstIndex(of: "X") {
            guard let r = Self.number(storagePart[storagePart.index(after: x)...]) else { return nil }
            repeatCount = r
            storagePart = storagePart[..<x]
        }
        guard let storage = Self.number(storagePart), let shift = Self.number(s[shiftMark.upperBound...]) else {
            return nil
        }
        guard [8, 16, 32, 64].contains(storage), (1...storage).contains(real), shift < storage, shift + real <= storage,
            (1...16).contains(repeatCount)
        else { return nil }
        return IIOScanType(
            bigEndian: big, signed: sign == "s", realBits: real, storageBits: storage, shift: shift,
            repeatCount: repeatCount)
    }

    private static func number(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.count <= 3, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(s)
    }

    /// The element's value at `offset` of `record` (its first repeat).
    public func value(in record: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
        let n = storageBits / 8
        var raw: UInt64 = 0
        for i in 0..<n {
            let byte = UInt64(record[offset + (bigEndian ? i : n - 1 - i)])
            raw = raw << 8 | byte
        }
        raw >>= UInt64(shift)
        if realBits < 64 { raw &= (UInt64(1) << UInt64(realBits)) - 1 }
        if signed && realBits < 64 && raw & (UInt64(1) << UInt64(realBits - 1)) != 0 {
            raw |= ~((UInt64(1) << UInt64(realBits)) - 1)
        }
        return Int64(bitPattern: raw)
    }
}

/// The layout of an IIO buffer's scan records: enabled channels in `scan_index` order, each
/// aligned to its own size, the record padded to the largest (as the kernel lays them out).
public struct IIOScanLayout: Sendable, Equatable {
    /// One enabled channel.
    public struct Channel: Sendable, Equatable {
        public var name: String
        public var index: Int
        public var type: IIOScanType
        /// Byte offset in a record (set by the layout).
        public var offset = 0

        public init(name: String, index: Int, type: IIOScanType) {
            self.name = name
            self.index = index
            self.type = type
        }
    }

    public private(set) var channels: [Channel]
    public private(set) var recordBytes: Int

    /// Lays out `channels` (any order); nil when two share an index or there are none.
    public init?(channels: [Channel]) {
        let sorted = channels.sorted { $0.index < $1.index }
        guard !sorted.isEmpty, Set(sorted.map(\.index)).count == sorted.count else { return nil }
        var offset = 0
        var largest = 1
        var placed: [Channel] = []
        for var c in sorted {
            let size = c.type.storageBits / 8
            offset = (offset + size - 1) / size * size
            c.offset = offset
            offset += c.type.bytes
            largest = max(largest, size)
            placed.append(c)
        }
        self.channels = placed
        recordBytes = (offset + largest - 1) / largest * largest
    }

    /// The channel named `name`, if enabled.
    public func channel(_ name: String) -> Channel? { channels.first { $0.name == name } }
}
