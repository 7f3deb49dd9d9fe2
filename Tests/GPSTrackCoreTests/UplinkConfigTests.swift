import GPSTrackCore
import GPSTrackProtocol
import Testing

/// The HTTP uplinks' keys: values read, and every bad one an error naming its line.
@Suite struct UplinkConfigTests {
    @Test func traccarKeys() throws {
        let c = try ConfigParser.parse(
            """
            traccar_url = https://traccar.example.org:5055/
            traccar_device_id = box 25
            traccar_format = json
            traccar_min_interval_s = 5
            traccar_min_distance_m = 0
            traccar_heartbeat_s = 60
            traccar_outbox_max = 100
            traccar_timeout_s = 3
            uplink_max_clock_offset_s = 315360000
            """, file: "u.conf")
        #expect(c.traccar.url == "https://traccar.example.org:5055/" && c.traccar.deviceID == "box 25")
        #expect(c.traccar.format == .json && c.traccar.minIntervalS == 5 && c.traccar.minDistanceM == 0)
        #expect(c.traccar.heartbeatS == 60 && c.traccar.outboxMax == 100 && c.traccar.timeoutS == 3)
        #expect(c.uplinkMaxClockOffsetS == 315_360_000)
        #expect(c.origins["traccar_url"] == "u.conf:1")
        let plain = try ConfigParser.parse("", file: "u.conf")
        #expect(plain.traccar.url == nil && plain.traccar.format == .query && plain.uplinkMaxClockOffsetS == 86_400)
    }

    /// The backlog age limits: off unless set, seconds when set.
    @Test func maxAgeKeys() throws {
        let c = try ConfigParser.parse("traccar_max_age_s = 600\nowntracks_http_max_age_s = 90.5\n", file: "a.conf")
        #expect(c.traccar.maxAgeS == 600 && c.owntracksHTTP.maxAgeS == 90.5)
        let plain = try ConfigParser.parse("", file: "a.conf")
        #expect(plain.traccar.maxAgeS == nil && plain.owntracksHTTP.maxAgeS == nil)
    }

    /// Each uplink's CA file, and the client certificate (both halves or neither).
    @Test func tlsKeys() throws {
        let c = try ConfigParser.parse(
            """
            traccar_ca_file = /etc/ssl/t.pem
            traccar_client_cert_file = /etc/gpstrackd/box.pem
            traccar_client_key_file = /etc/gpstrackd/box.key
            owntracks_http_ca_file = /etc/ssl/o.pem
            webhook_ca_file = /etc/ssl/w.pem
            """, file: "t.conf")
        #expect(c.traccar.caFile == "/etc/ssl/t.pem" && c.owntracksHTTP.caFile == "/etc/ssl/o.pem")
        #expect(c.webhook.caFile == "/etc/ssl/w.pem")
        #expect(
            c.traccar.clientCertFile == "/etc/gpstrackd/box.pem" && c.traccar.clientKeyFile == "/etc/gpstrackd/box.key")
        let plain = try ConfigParser.parse("", file: "t.conf")
        #expect(plain.owntracksHTTP.caFile == nil && plain.webhook.caFile == nil && plain.traccar.clientCertFile == nil)
    }

    @Test func webhookKeys() throws {
        let c = try ConfigParser.parse(
            "webhook_url = https://ntfy.sh/box\nwebhook_events = enter, trip_end\nwebhook_format = ntfy\n"
                + "webhook_token_file = /etc/gpstrackd/token\n", file: "w.conf")
        #expect(c.webhook.url == "https://ntfy.sh/box" && c.webhook.events.map(\.rawValue) == ["enter", "trip_end"])
        #expect(c.webhook.format == .ntfy && c.webhook.tokenFile == "/etc/gpstrackd/token")
        #expect(
            try ConfigParser.parse("", file: "w.conf").webhook.events.map(\.rawValue) == [
                "guard_breach", "overspeed_start", "anchor_alarm", "anchor_no_position", "power_lost", "battery_low",
                "sos",
            ])
    }

    @Test(arguments: [
        ("traccar_url = ftp://x/\ntraccar_device_id = a\n", 1, "expected an http:// or https:// URL"),
        ("traccar_url = http:///path\ntraccar_device_id = a\n", 1, "names no host"),
        ("traccar_format = query\n\ntraccar_url = http://x:5055/\n", 3, "traccar_url needs traccar_device_id"),
        ("traccar_format = xml\n", 1, "expected query or json"),
        ("traccar_min_interval_s = -1\n", 1, "expected a number of seconds >= 0"),
        ("traccar_outbox_max = 5\n", 1, "expected a whole number >= 10"),
        ("uplink_max_clock_offset_s = 0\n", 1, ">= 1"),
        ("webhook_url = mailto:x\n", 1, "expected an http:// or https:// URL"),
        ("\nwebhook_events = enter,teleport\n", 2, "unknown event kind 'teleport'"),
        ("webhook_format = xml\n", 1, "expected json or ntfy"),
        ("owntracks_http_user = a:b\n", 1, "no ':'"),
        ("\ntraccar_max_age_s = 0\n", 2, "expected a number of seconds >= 1"),
        ("\n\ntraccar_client_key_file = /k\n", 3, "traccar_client_key_file alone"),
        ("traccar_client_cert_file = /c\n", 1, "go together: traccar_client_cert_file alone"),
        ("owntracks_http_max_age_s = soon\n", 1, "expected a number of seconds >= 1"),
        ("owntracks_http_url = http://r/pub\n\nowntracks_http_password_file = /pw\n", 3, "needs owntracks_http_user"),
    ])
    func badValuesNameTheLine(_ text: String, _ line: Int, _ fragment: String) {
        do {
            _ = try ConfigParser.parse(text, file: "u.conf")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.file == "u.conf" && error.line == line, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
        }
    }
}
