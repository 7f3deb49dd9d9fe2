import GPSTrackJSON

/// Counts by name, written in the names' order (`{"stale":2,"too_fast":1}`).
public struct NamedCounts: Codable, Sendable, Equatable {
    public var counts: [String: Int]
    public init(_ counts: [String: Int] = [:]) { self.counts = counts }

    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Name.self)
        counts = [:]
        for k in c.allKeys { counts[k.stringValue] = try c.decode(Int.self, forKey: k) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Name.self)
        for name in counts.keys.sorted() { try c.encode(counts[name]!, forKey: Name(stringValue: name)) }
    }
}
