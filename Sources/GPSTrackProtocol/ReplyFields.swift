import GPSTrackJSON

/// Counts by name, written in the names' order (`{"stale":2,"too_fast":1}`).
public struct NamedCounts: Codable, Sendable, Equatable {
    public var counts: [String: Int]
    public init(_ counts: [String: Int] = [:]) { self.counts = counts }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        counts = [:]
        for k in c.allKeys { counts[k.stringValue] = try c.decode(Int.self, forKey: k) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        for name in counts.keys.sorted() { try c.encode(counts[name]!, forKey: JSONKey(stringValue: name)) }
    }
}
