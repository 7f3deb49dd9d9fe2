import GPSTrackCore
import Testing

/// Credentials never go in plaintext off the box unless `allow_plaintext_credentials = yes`
/// (issue 38): each case refused at the line of the key that carries the credential.
@Suite struct PlaintextCredentialsTests {
    @Test(arguments: [
        ("mqtt_host = broker.example.net\nmqtt_password_file = /p\n", 2, "mqtt_password_file: "),
        ("mqtt_host = 10.0.0.2\nmqtt_user = van\nmqtt_password_file = /p\n", 3, "mqtt_password_file: "),
        (
            "owntracks_http_url = http://rec.example.net/pub\nowntracks_http_user = u\nowntracks_http_password_file = /p\n",
            3, "owntracks_http_password_file: "
        ),
        ("webhook_url = HTTP://ntfy.example.net:8080/van\nwebhook_token_file = /t\n", 2, "webhook_token_file: "),
        ("traccar_url = http://u:pw@traccar.example.net:5055/\ntraccar_device_id = v\n", 1, "traccar_url: "),
        ("webhook_url = http://[2001:db8::1]:80/x\nwebhook_token_file = /t\n", 2, "webhook_token_file: "),
    ])
    func plaintextCredentialsToAnotherHostAreRefused(_ text: String, _ line: Int, _ prefix: String) {
        #expect {
            _ = try ConfigParser.parse(text, file: "/etc/gpstrackd/gpstrackd.conf")
        } throws: { error in
            guard let e = error as? ConfigError else { return false }
            return e.line == line && e.message.hasPrefix(prefix)
                && e.message.contains("allow_plaintext_credentials = yes") && !e.message.contains("pw@")
        }
        #expect(throws: Never.self) {
            _ = try ConfigParser.parse(text + "allow_plaintext_credentials = yes\n", file: "t.conf")
        }
    }

    @Test(arguments: [
        "mqtt_host = broker.example.net\nmqtt_password_file = /p\nmqtt_ca_file = /ca\n",  // TLS
        "mqtt_host = localhost\nmqtt_password_file = /p\n",  // loopback
        "mqtt_host = 127.0.0.1\nmqtt_password_file = /p\n",
        "mqtt_host = ::1\nmqtt_password_file = /p\n",
        "mqtt_host = broker.example.net\n",  // no password
        "webhook_url = https://ntfy.example.net/van\nwebhook_token_file = /t\n",
        "webhook_url = http://127.0.0.1:8080/van\nwebhook_token_file = /t\n",
        "webhook_url = http://[::1]:8080/van\nwebhook_token_file = /t\n",
        "webhook_url = http://ntfy.example.net/van\n",  // nothing secret
    ])
    func tlsLoopbackOrNoCredentialIsFine(_ text: String) {
        #expect(throws: Never.self) { _ = try ConfigParser.parse(text, file: "t.conf") }
    }

    @Test func theKeyTakesYesOrNo() {
        #expect(throws: ConfigError.self) {
            _ = try ConfigParser.parse("allow_plaintext_credentials = on\n", file: "t")
        }
        #expect(Configuration().allowPlaintextCredentials == false)
    }
}
