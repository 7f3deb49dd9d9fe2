/// A number with at most `places` decimals, without an exponent or a trailing `.0` (`13`,
/// `-0.00005`, `8.5412345`): GeoJSON's positions, as GDAL and RFC 7946 readers take them. A
/// value too large for the fixed form, or not finite, is written as any number is.
public struct FixedDecimal: Encodable, Sendable, Equatable {
    public var value: Double
    public var places: Int

    public init(_ value: Double, places: Int) {
        self.value = value
        self.places = places
    }

    /// The text: rounded half away from zero, no negative zero; "" when not finite.
    public static func text(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let n = Int64(clamping: scaled)
        let s = Int64(clamping: scale)
        var frac = places > 0 ? String(n % s) : ""
        frac = String(repeating: "0", count: max(0, places - frac.count)) + frac
        while frac.hasSuffix("0") { frac.removeLast() }
        let sign = value < 0 && n != 0 ? "-" : ""
        return sign + String(n / s) + (frac.isEmpty ? "" : "." + frac)
    }

    public func encode(to encoder: any Encoder) throws {
        if let slots = encoder as? SlotEncoder, value.isFinite {
            slots.slot.set(Self.text(value, places: places))
        } else {
            var c = encoder.singleValueContainer()
            try c.encode(value)
        }
    }
}

extension ReplyEncoder {
    /// A value one of whose arrays is written element by element (a feature collection's
    /// features, a trip's coordinates as they come): the line up to that array's `[` and from
    /// its `]`. The array is the value's last empty one, so it must be given empty and be
    /// written after every other empty array (GeoJSON's `coordinates` and `features` are).
    public static func frame<T: Encodable>(around value: T) -> (head: String, tail: String) {
        let line = encode(value)
        guard
            let at = line.utf8.indices.last(where: { i in
                line.utf8[i] == UInt8(ascii: "[") && line.utf8.index(after: i) != line.utf8.endIndex
                    && line.utf8[line.utf8.index(after: i)] == UInt8(ascii: "]")
            })
        else { return (line, "") }
        let close = line.utf8.index(after: at)
        return (String(line[...at]), String(line[close...]))
    }
}
