import Foundation
import GPSTrackCore
import Testing

@testable import GPSTrackDaemon

/// The broker's `dump`: every key of gpstrackd.conf(5) from one table, and no secret of a
/// configuration that has each kind (a URL's userinfo, path, query and fragment, Traccar's
/// device identifier, the contents of the password, secret, token and key files); a
/// configuration error names a URL without its userinfo and query.
@Suite struct ConfigurationDumpTests {
    @Test func theTableHoldsEveryKeyInTheDocumentedOrder() {
        #expect(ConfigurationDump.table.map(\.key) == ConfigParser.keys)
    }

    @Test func aDumpOfEveryKindOfSecretHoldsNone() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-dump-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = [
            "password": "mqtt-password-8", "secret": "encryption-key-9", "token": "bearer-token-10",
            "otpassword": "recorder-password-11", "key": "PRIVATE-KEY-12",
        ]
        for (name, content) in files {
            try (content + "\n").write(toFile: "\(dir)/\(name)", atomically: true, encoding: .utf8)
        }
        let config = try ConfigParser.parse(
            """
            mqtt_host = broker.example.org
            allow_plaintext_credentials = yes
            mqtt_user = van7
            mqtt_password_file = \(dir)/password
            mqtt_secret_file = \(dir)/secret
            mqtt_cert_file = \(dir)/cert
            mqtt_key_file = \(dir)/key
            traccar_url = https://alice:traccar-password-1@traccar.example.org:5055/?token=traccar-token-2
            traccar_device_id = device-credential-3
            webhook_url = https://ha.example.org/api/webhook/webhook-id-4?key=webhook-key-5#fragment-6
            webhook_token_file = \(dir)/token
            owntracks_http_url = https://bob:recorder-url-password-7@recorder.example.org/pub
            owntracks_http_user = bob
            owntracks_http_password_file = \(dir)/otpassword
            """, file: "secrets.conf")
        let dump = ConfigurationDump.json(config, tst: 5)
        let secrets =
            [
                "alice", "traccar-password-1", "traccar-token-2", "device-credential-3", "webhook-id-4",
                "webhook-key-5", "fragment-6", "recorder-url-password-7",
            ] + files.values
        for secret in secrets { #expect(!dump.contains(secret), "\(secret) in \(dump)") }
        // What is no secret is still there: hosts, file names, users, the other keys.
        for shown in [
            #""traccar_url":"https://traccar.example.org:5055/?...""#,
            #""webhook_url":"https://ha.example.org/...?...""#,
            #""owntracks_http_url":"https://recorder.example.org/...""#, #""mqtt_password_file":"\#(dir)/password""#,
            #""traccar_device_id":"(set, not shown)""#, #""mqtt_user":"van7""#, #""gpsd":"localhost:2947""#,
            #""mqtt_port":1883"#, #""trip_mode":"auto""#, #""speed_limit_kmh":null"#,
        ] {
            #expect(dump.contains(shown), "\(shown) not in \(dump)")
        }
        #expect(
            dump.hasPrefix(#"{"_type":"configuration","tst":5,"gpstrackd":{"gpsd":"localhost:2947","device":null,"#))
        #expect(!dump.contains("origins"))
    }

    @Test func aConfigurationErrorNamesAURLWithoutItsSecrets() {
        for line in [
            "traccar_url = htps://alice:error-password-13@traccar.example.org/?token=error-token-14",
            "webhook_url = https://alice:error-password-13@ha.example.org/x y?token=error-token-14",
        ] {
            #expect {
                _ = try ConfigParser.parse(line, file: "e.conf")
            } throws: { error in
                let text = "\(error)"
                return text.hasPrefix("e.conf:1: ") && text.contains("example.org") && !text.contains("alice")
                    && !text.contains("error-password-13") && !text.contains("error-token-14")
            }
        }
        let url = "https://u:p@h.example:8080/a/b?q=1#f"
        #expect(URLText.shown(url) == "https://h.example:8080/a/b?...")
        #expect(URLText.shown(url, path: false) == "https://h.example:8080/...?...")
        #expect(URLText.shown("http://h/") == "http://h/" && URLText.shown("user@host#x") == "host#...")
    }
}
