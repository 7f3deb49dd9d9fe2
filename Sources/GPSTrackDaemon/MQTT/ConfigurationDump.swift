import GPSTrackCore
import GPSTrackProtocol

/// The effective configuration as JSON, for the broker's `dump`: every field of `Configuration`
/// by its Swift name, nested by part (`mqtt`, `tracker`), read by reflection so that a new key
/// is in the dump without a line here. `Configuration` holds the names of the password, secret
/// and key files, never their contents (those live in `MQTTPublisher` only); `origins` is left
/// out (where each key was set is the operator's business, not the broker's).
enum ConfigurationDump {
    static func json(_ c: Configuration, tst: Int) -> String {
        var o = JSONObject()
        o.add("_type", "configuration")
        o.add("tst", tst)
        o.add("gpstrackd", raw: value(c, depth: 0))
        return o.encoded
    }

    static let left = ["origins"]

    static func value(_ v: Any, depth: Int) -> String {
        let m = Mirror(reflecting: v)
        if m.displayStyle == .optional { return m.children.first.map { value($0.value, depth: depth) } ?? "null" }
        switch v {
        case let s as String: return JSONObject.quote(s)
        case let b as Bool: return b ? "true" : "false"
        case let i as Int: return "\(i)"
        case let d as Double: return JSONObject.number(d)
        case let a as [Any]: return "[" + a.map { value($0, depth: depth + 1) }.joined(separator: ",") + "]"
        default: break
        }
        guard m.displayStyle == .struct, depth < 4 else { return JSONObject.quote(String(describing: v)) }
        var o = JSONObject()
        for child in m.children {
            guard let label = child.label, !left.contains(label) else { continue }
            o.add(label, raw: value(child.value, depth: depth + 1))
        }
        return o.encoded
    }
}
