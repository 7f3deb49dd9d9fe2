/// A minimal JSON object writer for output lines: keys in insertion order, NaN and infinity as
/// null, strings escaped per RFC 8259.
public struct JSONObject {
    private var parts: [String] = []

    public init() {}

    public mutating func add(_ key: String, _ value: String?) {
        parts.append(Self.quote(key) + ":" + (value.map(Self.quote) ?? "null"))
    }

    /// Adds a number, rounded to `decimals` places when given.
    public mutating func add(_ key: String, _ value: Double?, decimals: Int? = nil) {
        parts.append(Self.quote(key) + ":" + Self.number(value, decimals: decimals))
    }

    public mutating func add(_ key: String, _ value: Int) {
        parts.append(Self.quote(key) + ":" + String(value))
    }

    public mutating func add(_ key: String, _ value: Bool) {
        parts.append(Self.quote(key) + ":" + (value ? "true" : "false"))
    }

    /// Adds an already-encoded JSON value.
    public mutating func add(_ key: String, raw: String) {
        parts.append(Self.quote(key) + ":" + raw)
    }

    public mutating func add(_ key: String, _ object: JSONObject) {
        add(key, raw: object.encoded)
    }

    /// The object as one line of JSON.
    public var encoded: String { "{" + parts.joined(separator: ",") + "}" }

    public static func number(_ value: Double?, decimals: Int? = nil) -> String {
        guard let value, value.isFinite else { return "null" }
        guard let decimals else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return "\(rounded == 0 ? 0 : rounded)"
    }

    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
