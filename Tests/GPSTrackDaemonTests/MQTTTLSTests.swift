import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

/// MQTT over TLS against a real mosquitto TLS listener, with certificates made here by the
/// `openssl` command: a CA, a server certificate for localhost/127.0.0.1, a client certificate,
/// a second CA the broker's certificate does not come from, and an expired server certificate.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/openssl", package: "openssl")] + Need.mosquitto))
struct MQTTTLSTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// Certificates in a fresh directory.
    struct PKI {
        let dir: String
        var ca: String { dir + "/ca.crt" }
        var otherCA: String { dir + "/other-ca.crt" }
        var server: (cert: String, key: String) { (dir + "/server.crt", dir + "/server.key") }
        var expired: (cert: String, key: String) { (dir + "/expired.crt", dir + "/server.key") }
        var client: (cert: String, key: String) { (dir + "/client.crt", dir + "/client.key") }

        init(_ name: String) throws {
            dir = NSTemporaryDirectory() + "gpstrackd-pki-\(name)-\(getpid())"
            try? FileManager.default.removeItem(atPath: dir)
            try FileManager.default.createDirectory(atPath: dir + "/issued", withIntermediateDirectories: true)
            try Self.openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir + "/ca.key", "-out", dir + "/ca.crt",
                "-days", "30", "-subj", "/CN=gpstrackd test CA",
            ])
            try Self.openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir + "/other-ca.key", "-out",
                dir + "/other-ca.crt",
                "-days", "30", "-subj", "/CN=some other CA",
            ])
            try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(
                toFile: dir + "/server.ext", atomically: true, encoding: .utf8)
            for who in ["server", "client"] {
                try Self.openssl([
                    "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(dir)/\(who).key", "-out", "\(dir)/\(who).csr",
                    "-subj", "/CN=\(who == "server" ? "localhost" : "box1")",
                ])
                var args = [
                    "x509", "-req", "-in", "\(dir)/\(who).csr", "-CA", dir + "/ca.crt", "-CAkey", dir + "/ca.key",
                    "-CAcreateserial", "-out", "\(dir)/\(who).crt", "-days", "30",
                ]
                if who == "server" { args += ["-extfile", dir + "/server.ext"] }
                try Self.openssl(args)
            }
            // An expired certificate for the same key: `openssl ca` takes explicit dates.
            try "".write(toFile: dir + "/index.txt", atomically: true, encoding: .utf8)
            try "1000\n".write(toFile: dir + "/serial", atomically: true, encoding: .utf8)
            try """
            [ca]
            default_ca = test
            [test]
            database = \(dir)/index.txt
            new_certs_dir = \(dir)/issued
            serial = \(dir)/serial
            default_md = sha256
            policy = any
            copy_extensions = none
            x509_extensions = ext
            [any]
            commonName = supplied
            [ext]
            subjectAltName = DNS:localhost,IP:127.0.0.1
            """.write(toFile: dir + "/ca.cnf", atomically: true, encoding: .utf8)
            try Self.openssl([
                "ca", "-batch", "-config", dir + "/ca.cnf", "-cert", dir + "/ca.crt", "-keyfile", dir + "/ca.key",
                "-in", dir + "/server.csr", "-out", dir + "/expired.crt", "-notext",
                "-startdate", "20200101000000Z", "-enddate", "20200201000000Z",
            ])
            // mosquitto drops root for its own user, which must read the keys.
            for f in try FileManager.default.contentsOfDirectory(atPath: dir) { chmod(dir + "/" + f, 0o644) }
        }

        static func openssl(_ args: [String]) throws {
            let r = try ExecutableRunner.run(args, executable: "/usr/bin/openssl")
            guard r.status == 0 else { throw LiveHarness.Timeout(what: "openssl \(args.first ?? ""): \(r.stderr)") }
        }
    }

    /// A mosquitto TLS listener on a free port, logging each connection attempt to a file.
    final class TLSBroker {
        let process = Process()
        let port = LiveHarness.freePort()
        let log: String
        init(
            dir: String, cert: (cert: String, key: String), ca: String, requireClientCertificate: Bool = false,
            passwordFile: String? = nil
        ) throws {
            log = dir + "/mosquitto-\(port).log"
            var conf =
                "per_listener_settings false\nlistener \(port) 127.0.0.1\ncafile \(ca)\ncertfile \(cert.cert)\nkeyfile \(cert.key)\n"
            conf += "require_certificate \(requireClientCertificate)\nlog_dest file \(log)\nlog_type all\n"
            conf += passwordFile.map { "allow_anonymous false\npassword_file \($0)\n" } ?? "allow_anonymous true\n"
            let path = dir + "/mosquitto-\(port).conf"
            try conf.write(toFile: path, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            chmod(log, 0o666)
            chmod(dir, 0o777)
            LiveHarness.unmasked(process, "/usr/sbin/mosquitto", ["-c", path])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try LiveHarness.waitFor("the TLS broker", timeout: 10) { MQTTTests.Broker.listening(port) }
        }
        /// Connections the broker saw (each attempt of a client, TLS failures included, and the
        /// readiness probe): mosquitto logs "New connection from" or "Client connection from
        /// … failed" when the handshake fails early.
        var connections: Int {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(
                separatedBy: "connection from 127.0.0.1"
            ).count - 1
        }
        deinit {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    static func daemon(_ broker: TLSBroker, _ tls: String, host: String = "localhost") throws
        -> LiveHarness.DaemonProcess
    {
        try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:1", "--fences", try LiveDaemonTests.fencesFile("tls.geojson")],
            extraConfig: "mqtt_host = \(host)\nmqtt_port = \(broker.port)\nmqtt_topic = owntracks/tls/box1\n" + tls)
    }

    /// MQTT entries that say something is wrong (refused, lost, TLS).
    static func problems(_ daemon: LiveHarness.DaemonProcess) throws -> [[String: Any]] {
        try daemon.entries().filter {
            ["mqtt_tls_failed", "mqtt_refused", "mqtt_lost", "mqtt_error"].contains(
                $0["GPSTRACK_EVENT"] as? String ?? "")
        }
    }

    @Test func serverVerificationAndAPasswordOverTLS() throws {
        let pki = try PKI("verify")
        let passwd = pki.dir + "/passwd"
        let make = try ExecutableRunner.run(
            ["-c", "-b", passwd, "box1", "tls-secret-42"], executable: "/usr/bin/mosquitto_passwd")
        #expect(make.status == 0)
        chmod(passwd, 0o644)
        let broker = try TLSBroker(dir: pki.dir, cert: pki.server, ca: pki.ca, passwordFile: passwd)
        // A subscriber over TLS too, to see the daemon's waypoints arrive.
        let out = pki.dir + "/sub.txt"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let sub = Process()
        LiveHarness.unmasked(
            sub, "/usr/bin/mosquitto_sub",
            [
                "-h", "localhost", "-p", String(broker.port), "--cafile", pki.ca,
                "-u", "box1", "-P", "tls-secret-42", "-v", "-t", "owntracks/#",
            ])
        sub.standardOutput = FileHandle(forWritingAtPath: out)
        sub.standardError = FileHandle.nullDevice
        try sub.run()
        defer {
            sub.terminate()
            sub.waitUntilExit()
        }
        // Subscribed once a probe published over TLS comes back (published again until then).
        try LiveHarness.waitFor("the subscriber's probe over TLS", timeout: 30) {
            let seen = { ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("owntracks/probe/tls ") }
            if seen() { return true }
            let probe = try ExecutableRunner.run(
                [
                    "-h", "localhost", "-p", String(broker.port), "--cafile", pki.ca, "-u", "box1", "-P",
                    "tls-secret-42",
                    "-q", "1", "-t", "owntracks/probe/tls", "-m", #"{"_type":"probe"}"#,
                ], executable: "/usr/bin/mosquitto_pub")
            return probe.status == 0 && seen()
        }
        let pw = try ExecutableRunner.temporaryFile("tls.pw", contents: "tls-secret-42\n")
        let daemon = try Self.daemon(broker, "mqtt_ca_file = \(pki.ca)\nmqtt_user = box1\nmqtt_password_file = \(pw)\n")
        try daemon.waitFor("mqtt_connected", timeout: 20)
        try LiveHarness.waitFor("the waypoints over TLS", timeout: 20) {
            ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("owntracks/tls/box1/waypoints")
        }
        #expect(try Self.problems(daemon).isEmpty)
        for entry in try daemon.entries() {
            #expect(
                !entry.contains { key, value in (key + "=" + MQTTTests.texts(value).joined()).contains("tls-secret-42")
                },
                "the password is never logged, in no field: \(entry)")
        }
        #expect(daemon.stop() == 0)
    }

    @Test func clientCertificates() throws {
        let pki = try PKI("client")
        let broker = try TLSBroker(dir: pki.dir, cert: pki.server, ca: pki.ca, requireClientCertificate: true)
        let with = try Self.daemon(
            broker, "mqtt_ca_file = \(pki.ca)\nmqtt_cert_file = \(pki.client.cert)\nmqtt_key_file = \(pki.client.key)\n"
        )
        try with.waitFor("mqtt_connected", timeout: 20)
        #expect(try Self.problems(with).isEmpty)
        #expect(with.stop() == 0)

        // Without one the broker refuses the handshake: said once, naming the certificate.
        let without = try Self.daemon(broker, "mqtt_ca_file = \(pki.ca)\n")
        let before = broker.connections
        try without.waitFor("mqtt_tls_failed", timeout: 20)
        try LiveHarness.waitFor("retries", timeout: 20) { broker.connections >= before + 3 }
        let entries = try without.entries("mqtt_tls_failed")
        #expect(entries.count == 1, "one entry per problem, not per retry: \(entries.count)")
        let message = entries.first?["MESSAGE"] as? String ?? ""
        #expect(message.contains("certificate") && message.contains("mqtt_cert_file"), "\(message)")
        #expect(try without.entries("mqtt_connected").isEmpty)
        #expect(without.stop() == 0)
    }

    @Test(arguments: ["wrong CA", "expired"])
    func aCertificateProblemIsNamedOnce(_ problem: String) throws {
        let pki = try PKI(problem == "expired" ? "expired" : "wrongca")
        let broker = try TLSBroker(dir: pki.dir, cert: problem == "expired" ? pki.expired : pki.server, ca: pki.ca)
        let daemon = try Self.daemon(broker, "mqtt_ca_file = \(problem == "expired" ? pki.ca : pki.otherCA)\n")
        try daemon.waitFor("mqtt_tls_failed", timeout: 20)
        // The daemon goes on trying (the certificate may be fixed on the broker's side).
        try LiveHarness.waitFor("retries", timeout: 20) { broker.connections >= 4 }
        let entries = try daemon.entries("mqtt_tls_failed")
        #expect(entries.count == 1, "one entry per problem, not per retry: \(entries.count)")
        let entry = try #require(entries.first)
        let message = entry["MESSAGE"] as? String ?? ""
        #expect(entry["PRIORITY"] as? String == "3")
        #expect(!message.contains("unreachable"))
        if problem == "expired" {
            #expect(message.contains("certificate has expired"), "\(message)")
        } else {
            // OpenSSL's words for a chain that does not lead to a trusted CA (the broker sends
            // its CA along, so OpenSSL meets a self-signed certificate it does not trust).
            #expect(
                ["unable to get local issuer certificate", "self-signed certificate in certificate chain"].contains(
                    where: message.contains)
                    && message.contains(pki.otherCA), "\(message)")
        }
        #expect(try daemon.entries("mqtt_connected").isEmpty && daemon.entries("mqtt_lost").isEmpty)
        #expect(daemon.stop() == 0)
    }
}
