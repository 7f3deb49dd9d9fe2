import Foundation
import GPSTrackCore
import Testing

/// Every numeric configuration key has a physical upper bound, refused beyond it with the key
/// named, and gpstrackd.conf(5) gives the same bound in the key's entry.
@Suite struct ConfigBoundsTests {
    /// The keys whose value is text (a path, a name, a host): any number is a valid text.
    static let textKeys: Set<String> = [
        "gpsd", "device", "fences", "socket", "state_dir", "socket_group", "mqtt_host", "mqtt_topic",
        "mqtt_client_id", "mqtt_user", "mqtt_password_file", "mqtt_secret_file", "mqtt_ca_file", "mqtt_cert_file",
        "mqtt_key_file", "admin_group", "metrics_file", "iio_root", "iio_dev_root", "traccar_device_id",
        "traccar_ca_file", "traccar_client_cert_file", "traccar_client_key_file", "webhook_token_file",
        "webhook_ca_file", "owntracks_http_user", "owntracks_http_device", "owntracks_http_password_file",
        "owntracks_http_ca_file", "map_tiles_attribution", "ha_discovery_prefix", "ha_node_id",
    ]

    @Test func everyNumericKeyRefusesFiguresBeyondAnyVehicle() {
        for key in ConfigParser.keys {
            for huge in ["1e300", "9223372036854775807", "1e19", "inf"] {
                var c = Configuration()
                let refused: Bool
                do {
                    try ConfigParser.apply(key: key, value: huge, to: &c, source: "flag")
                    refused = false
                } catch { refused = true }
                if Self.textKeys.contains(key) {
                    #expect(!refused, "\(key) is a text key but refuses \(huge)")
                } else {
                    #expect(refused, "\(key) = \(huge) is taken: give it a bound in ConfigParser.upperBounds")
                }
            }
        }
        #expect(Set(ConfigParser.upperBounds.keys).isSubset(of: Set(ConfigParser.keys)))
    }

    @Test func theBoundIsTheLastValueTakenAndTheErrorNamesTheLine() throws {
        for (key, bound) in ConfigParser.upperBounds {
            var c = Configuration()
            let at = bound == bound.rounded() ? String(Int(clamping: bound)) : String(bound)
            #expect(throws: Never.self, "\(key) = \(at)") {
                try ConfigParser.apply(key: key, value: at, to: &c, source: "flag")
            }
            let beyond = String(Int(clamping: bound * 1.5 + 1))
            #expect("\(key) = \(beyond)") {
                _ = try ConfigParser.parse("\n\(key) = \(beyond)\n", file: "b.conf")
            } throws: {
                ($0 as? ConfigError)?.description == "b.conf:2: \(key): at most \(at), got '\(beyond)'"
            }
        }
    }

    /// gpstrackd.conf(5)'s entry of each bounded key says "at most" and the bound.
    @Test func theManualGivesEachBound() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("man/gpstrackd.conf.5.scd")
        let lines = try String(contentsOf: page, encoding: .utf8).split(separator: "\n").map(String.init)
        for (key, bound) in ConfigParser.upperBounds {
            let term = "*" + key.replacingOccurrences(of: "_", with: "\\_") + "* ="
            guard let at = lines.firstIndex(where: { $0.hasPrefix(term) }) else {
                Issue.record("no entry for \(key)")
                continue
            }
            let entry = lines[(at + 1)...].prefix { $0.hasPrefix("\t") }.joined(separator: " ").lowercased()
            #expect(entry.contains("at most \(Int(clamping: bound))"), "gpstrackd.conf(5) \(key): \(entry)")
        }
    }
}
