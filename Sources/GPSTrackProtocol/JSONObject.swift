import GPSTrackJSON

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
        ReplyEncoder.number(value, decimals: decimals)
    }

    public static func quote(_ s: String) -> String { ReplyEncoder.quote(s) }
}
