/// A member named by text, for the values whose members depend on the case or the data (a
/// request's fields, counts by name, a parsed object written back).
public struct JSONKey: CodingKey, ExpressibleByStringLiteral, Sendable, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
    public init(stringLiteral value: String) { stringValue = value }
}
