import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The effective configuration as JSON, for the broker's `dump`: every field of `Configuration`
/// by its Swift name, nested by part (`mqtt`, `tracker`), read by reflection so that a new key
/// is in the dump without a line here. `Configuration` holds the names of the password, secret
/// and key files, never their contents (those live in `MQTTPublisher` only); `origins` is left
/// out (where each key was set is the operator's business, not the broker's).
enum ConfigurationDump {
    static func json(_ c: Configuration, tst: Int) -> String {
        ReplyEncoder.encode(Message(tst: tst, gpstrackd: value(c, depth: 0)))
    }

    static let left = ["origins"]

    /// A value as the dump writes it; a struct's fields in their declaration order.
    static func value(_ v: Any, depth: Int) -> Value {
        let m = Mirror(reflecting: v)
        if m.displayStyle == .optional { return m.children.first.map { value($0.value, depth: depth) } ?? .null }
        switch v {
        case let s as String: return .text(s)
        case let b as Bool: return .flag(b)
        case let i as Int: return .integer(i)
        case let d as Double: return .number(d)
        case let a as [Any]: return .list(a.map { value($0, depth: depth + 1) })
        default: break
        }
        guard m.displayStyle == .struct, depth < 4 else { return .text(String(describing: v)) }
        return .members(
            m.children.compactMap { child in
                guard let label = child.label, !left.contains(label) else { return nil }
                return (label, value(child.value, depth: depth + 1))
            })
    }

    struct Message: Encodable {
        var _type = "configuration"
        var tst: Int
        var gpstrackd: Value
    }

    /// One dumped value. Not a `JSONValue`: that has no integers and sorts an object's members.
    indirect enum Value: Encodable {
        case null
        case text(String)
        case flag(Bool)
        case integer(Int)
        case number(Double)
        case list([Value])
        case members([(String, Value)])

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .list(let items):
                var c = encoder.unkeyedContainer()
                for item in items { try c.encode(item) }
            case .members(let fields):
                var c = encoder.container(keyedBy: JSONKey.self)
                for (label, v) in fields { try c.encode(v, forKey: JSONKey(stringValue: label)) }
            default:
                var c = encoder.singleValueContainer()
                switch self {
                case .text(let s): try c.encode(s)
                case .flag(let b): try c.encode(b)
                case .integer(let i): try c.encode(i)
                case .number(let d): try c.encode(d)
                default: try c.encodeNil()
                }
            }
        }
    }
}
