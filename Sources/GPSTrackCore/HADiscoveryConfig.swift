/// Home Assistant's MQTT discovery (`ha_discovery`, gpstrackd.conf(5) HOME ASSISTANT): the box
/// as one HA device with its entities, over the broker of `mqtt_host`.
public struct HADiscoveryConfig: Sendable, Equatable {
    /// `ha_discovery`: off by default.
    public var enabled = false
    /// `ha_discovery_prefix`: HA's discovery prefix (its own default, `homeassistant`).
    public var prefix = "homeassistant"
    /// `ha_node_id`: the device's node id; nil for the host name made safe (`safeNodeID`).
    public var nodeID: String?
    /// `ha_min_interval_s`: the state topic is published at most this often but for a change
    /// of a yes/no entity (moving, fix, an alarm, a fence), which goes at once. Seconds.
    public var minIntervalS = 10.0
    /// `ha_discovery_plaintext`: with `mqtt_secret_file`, HA's topics go in clear only when
    /// this says so (HA cannot read OwnTracks' encryption).
    public var plaintext = false

    /// Longest prefix and node id, in bytes.
    public static let maxPrefixBytes = 64
    public static let maxNodeBytes = 64

    public init() {}

    /// A node id HA takes (`[a-zA-Z0-9_-]`, not empty): each other character becomes `_`, the
    /// text is cut to `maxNodeBytes`; an empty name is `gpstrackd`.
    public static func safeNodeID(_ name: String) -> String {
        let safe = String(
            String.UnicodeScalarView(
                name.unicodeScalars.prefix(maxNodeBytes).map { Self.isNodeScalar($0) ? $0 : "_" }))
        return safe.isEmpty ? "gpstrackd" : safe
    }

    public static func isNodeScalar(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "_" || c == "-"
    }

    /// A discovery prefix: topic levels of printable ASCII without MQTT's wildcards (`+`, `#`),
    /// no empty level, no leading `$` (the broker's own topics).
    static func prefixProblem(_ v: String) -> String? {
        guard v.utf8.count <= maxPrefixBytes else { return "expected at most \(maxPrefixBytes) bytes, got '\(v)'" }
        let levels = v.split(separator: "/", omittingEmptySubsequences: false)
        guard !v.hasPrefix("$"), levels.allSatisfy({ !$0.isEmpty }),
            v.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "+" && $0 != "#" })
        else { return "expected topic levels of printable ASCII, no '+', '#' or empty level, got '\(v)'" }
        return nil
    }
}

/// The Home Assistant keys (gpstrackd.conf(5), HOME ASSISTANT).
extension ConfigParser {
    static let haTable: [(String, Setter)] = [
        (
            "ha_discovery",
            { @Sendable c, v in
                guard let on = ["on": true, "off": false][v] else { return "expected on or off, got '\(v)'" }
                c.ha.enabled = on
                return nil
            }
        ),
        (
            "ha_discovery_prefix",
            { @Sendable c, v in
                if let problem = HADiscoveryConfig.prefixProblem(v) { return problem }
                c.ha.prefix = v
                return nil
            }
        ),
        (
            "ha_node_id",
            { @Sendable c, v in
                guard v.utf8.count <= HADiscoveryConfig.maxNodeBytes,
                    v.unicodeScalars.allSatisfy(HADiscoveryConfig.isNodeScalar)
                else {
                    return
                        "expected letters, digits, '_' and '-' (at most \(HADiscoveryConfig.maxNodeBytes)), got '\(v)'"
                }
                c.ha.nodeID = v
                return nil
            }
        ),
        (
            "ha_min_interval_s",
            { @Sendable c, v in
                // The upper bound is `upperBounds`'.
                guard let s = Double(v), s.isFinite, s >= 1 else { return "expected seconds >= 1, got '\(v)'" }
                c.ha.minIntervalS = s
                return nil
            }
        ),
        (
            "ha_discovery_plaintext",
            { @Sendable c, v in
                guard let yes = ["yes": true, "no": false][v] else { return "expected yes or no, got '\(v)'" }
                c.ha.plaintext = yes
                return nil
            }
        ),
    ]

    /// Discovery needs a broker, and with OwnTracks' encryption an explicit yes to go in clear.
    static func checkHA(_ config: Configuration, seen: [String: Int], file: String) throws(ConfigError) {
        guard config.ha.enabled else { return }
        if config.mqtt.host == nil {
            throw ConfigError(
                file: file, line: seen["ha_discovery"], message: "ha_discovery = on needs mqtt_host (HA's broker)")
        }
        if config.mqtt.secretFile != nil, !config.ha.plaintext {
            throw ConfigError(
                file: file, line: seen["ha_discovery"],
                message:
                    "ha_discovery = on with mqtt_secret_file needs ha_discovery_plaintext = yes: Home Assistant "
                    + "cannot read encrypted payloads, so its topics would go in clear")
        }
    }
}
