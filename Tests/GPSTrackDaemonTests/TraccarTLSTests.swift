import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The Traccar uplink over HTTPS to the loopback server, with certificates the `openssl`
/// command makes in the test's directory: a CA and a server certificate it signed (for
/// 127.0.0.1), another CA's certificate that nothing trusts, and a client certificate.
@Suite(
    .serialized,
    .needs([
        .gpsfake, .journal, .tool("/usr/bin/python3", package: "python3"),
        .tool("/usr/bin/openssl", package: "openssl"),
    ]))
struct TraccarTLSTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// Files made by openssl in `dir`: `ca.pem`, `server.pem`/`server.key` (signed by it),
    /// `rogue-server.pem`/`rogue-server.key` (signed by `rogue-ca.pem`), `client.pem`/`client.key`.
    static func certificates(_ dir: String) throws {
        func openssl(_ args: [String]) throws {
            let r = try ExecutableRunner.run(args, executable: "/usr/bin/openssl")
            try #require(r.status == 0, "openssl \(args.joined(separator: " ")): \(r.stderr)")
        }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(
            toFile: dir + "/san.cnf", atomically: true, encoding: .utf8)
        for ca in ["ca", "rogue-ca"] {
            try openssl(
                ["req", "-x509"] + ec + [
                    "-keyout", "\(dir)/\(ca).key", "-out", "\(dir)/\(ca).pem", "-days", "2", "-subj",
                    "/CN=gpstrackd test \(ca)",
                ])
        }
        for (name, ca, ext) in [("server", "ca", true), ("rogue-server", "rogue-ca", true), ("client", "ca", false)] {
            try openssl(
                ["req"] + ec + [
                    "-keyout", "\(dir)/\(name).key", "-out", "\(dir)/\(name).csr", "-subj", "/CN=127.0.0.1",
                ])
            try openssl(
                [
                    "x509", "-req", "-in", "\(dir)/\(name).csr", "-CA", "\(dir)/\(ca).pem", "-CAkey",
                    "\(dir)/\(ca).key",
                    "-CAcreateserial", "-out", "\(dir)/\(name).pem", "-days", "2",
                ] + (ext ? ["-extfile", dir + "/san.cnf"] : []))
        }
    }

    /// A 200 s walk fed to a daemon whose Traccar URL is https on `port`.
    static func daemon(_ name: String, port: Int, extra: String) throws -> (
        LiveHarness.DaemonProcess, LiveHarness.Feed
    ) {
        let fixes = TraccarUplinkTests.now(LiveDaemonTests.walk(seconds: 200, seed: 33))
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: fixes, padding: 60)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: "traccar_url = https://127.0.0.1:\(port)/\ntraccar_device_id = box 25\n"
                + "traccar_min_interval_s = 5\ntraccar_min_distance_m = 0\n" + extra)
        try daemon.waitFor("started")
        return (daemon, try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.02))
    }

    /// Timestamps of the positions the server took, in arrival order.
    static func times(_ server: TraccarUplinkTests.Server) -> [Int] {
        server.accepted().compactMap { $0["timestamp"].flatMap { Int($0) } }
    }

    /// The server's certificate from another CA: one `uplink_lost` naming the TLS failure and
    /// the CA file, no request reaching the server, the positions kept; the server then
    /// presenting the trusted certificate, every position arrives, in order, without a restart.
    @Test func anUntrustedServerIsATLSFailureAndTheQueueWaitsForATrustedOne() throws {
        let dir = try TraccarUplinkTests.directory("traccartls")
        try Self.certificates(dir)
        let port = LiveHarness.freePort()
        var server = try TraccarUplinkTests.Server(
            port: port, dir: dir, mode: "200", tls: [dir + "/rogue-server.pem", dir + "/rogue-server.key"])
        let (daemon, feed) = try Self.daemon("traccartls", port: port, extra: "traccar_ca_file = \(dir)/ca.pem\n")
        defer { feed.stop() }
        try daemon.waitFor("uplink_lost", timeout: 60)
        let lost = try #require(try daemon.entries("uplink_lost").first)
        let reason = lost["GPSTRACK_REASON"] as? String ?? ""
        #expect(
            reason.hasPrefix("TLS failure: ") && reason.contains("certificate")
                && reason.contains("traccar_ca_file \(dir)/ca.pem"), "\(lost)")
        #expect((lost["MESSAGE"] as? String)?.contains("TLS failure") == true, "\(lost)")
        try LiveHarness.waitFor("10 positions queued", timeout: 120) {
            (try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int ?? 0) >= 10
        }
        #expect(server.requests().isEmpty, "no request passes a failed handshake")
        #expect(
            (try TraccarUplinkTests.traccarStatus(daemon)["last_error"] as? String)?.hasPrefix("TLS failure") == true)
        server.stop()
        server = try TraccarUplinkTests.Server(
            port: port, dir: dir, mode: "200", tls: [dir + "/server.pem", dir + "/server.key"])
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 600) {
            try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int == 0
        }
        try daemon.waitFor("uplink_recovered", timeout: 30)
        let times = Self.times(server)
        #expect(times.count > 30 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 <= 12 }, "nothing lost in the spell: \(times)")
        #expect(try daemon.entries("uplink_lost").count == 1)
        #expect(daemon.stop() == 0)
    }

    /// A server that asks for a client certificate: refused without one (a TLS failure, kept),
    /// taken with `traccar_client_cert_file` and `traccar_client_key_file`.
    @Test func aClientCertificateIsPresentedWhenConfigured() throws {
        let dir = try TraccarUplinkTests.directory("traccarmtls")
        try Self.certificates(dir)
        let port = LiveHarness.freePort()
        let server = try TraccarUplinkTests.Server(
            port: port, dir: dir, mode: "200", tls: [dir + "/server.pem", dir + "/server.key", dir + "/ca.pem"])
        let (daemon, feed) = try Self.daemon(
            "traccarmtls", port: port,
            extra: "traccar_ca_file = \(dir)/ca.pem\ntraccar_client_cert_file = \(dir)/client.pem\n"
                + "traccar_client_key_file = \(dir)/client.key\n")
        defer { feed.stop() }
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 600) {
            try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int == 0
        }
        let times = Self.times(server)
        #expect(times.count > 30 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        #expect(try daemon.entries("uplink_lost").isEmpty, "no TLS failure with the certificate")
        #expect(daemon.stop() == 0)

        // The same server, a daemon without the certificate: refused at the handshake, kept.
        let (bare, bareFeed) = try Self.daemon("traccarnocert", port: port, extra: "traccar_ca_file = \(dir)/ca.pem\n")
        defer { bareFeed.stop() }
        try bare.waitFor("uplink_lost", timeout: 60)
        let lost = try #require(try bare.entries("uplink_lost").first)
        let refused = lost["GPSTRACK_REASON"] as? String ?? ""
        #expect(
            refused.hasPrefix("TLS failure: ") && refused.contains("certificate required")
                && refused.hasSuffix(", no client certificate)"), "\(lost)")
        #expect(Self.times(server).count == times.count, "nothing more reached the server")
        try LiveHarness.waitFor("positions queued", timeout: 120) {
            (try TraccarUplinkTests.traccarStatus(bare)["queued"] as? Int ?? 0) >= 3
        }
        #expect(bare.stop() == 0)
    }
}
