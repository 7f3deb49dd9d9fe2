import Foundation
import GPSTrackCore
import Testing

@testable import GPSTrackDaemon

/// TLS fails closed (issue 38): when `mqtt_ca_file` asks for TLS and `mosquitto_tls_set` fails
/// (the file vanished between the start-up check and the set-up), the client does not connect
/// at all, says why in `status`, and tries the set-up again on its backoff. A plain TCP
/// listener on loopback stands where the broker would be and keeps every byte it is sent: the
/// capture never holds an MQTT CONNECT or the password.
@Suite(.serialized, .needs(Need.mosquitto))
struct MQTTTLSClosedTests {
    /// Every connection to a loopback port and the bytes sent on it (until EOF or 2 s).
    final class Capture: @unchecked Sendable {  // `received` is only touched under `lock`
        private let lock = NSLock()
        private var received: [[UInt8]] = []
        let port: Int
        private let listener: Int32

        init() throws {
            listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = listener
            let bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
            }
            guard bound == 0, listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
            _ = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
            }
            port = Int(UInt16(bigEndian: addr.sin_port))
            Thread.detachNewThread { [self] in
                while true {
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { return }
                    var timeout = timeval(tv_sec: 2, tv_usec: 0)
                    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    var got: [UInt8] = []
                    var buf = [UInt8](repeating: 0, count: 4096)
                    while got.count < 65536 {
                        let n = recv(client, &buf, buf.count, 0)
                        guard n > 0 else { break }
                        got += buf[0..<n]
                    }
                    close(client)
                    lock.withLock { received.append(got) }
                }
            }
        }

        var connections: [[UInt8]] { lock.withLock { received } }
        deinit {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    @Test func aCAThatVanishedBeforeTheSetUpNeverConnectsInPlaintext() throws {
        let capture = try Capture()
        let secret = "hunter2-never-in-clear"
        let garbage = "-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----\n"
        let ca = try ExecutableRunner.temporaryFile("tls-closed-ca.pem", contents: garbage)
        let password = try ExecutableRunner.temporaryFile("tls-closed-password", contents: secret + "\n")
        var config = MQTTConfig()
        config.host = "127.0.0.1"
        config.port = capture.port
        config.user = "van"
        config.passwordFile = password
        config.caFile = ca
        let publisher = try MQTTPublisher(
            config: config, databasePath: ":memory:", journal: Journal(target: .stderr),
            configFile: "t.conf")
        // Checked at start-up, gone at the set-up: the race the start-up check cannot close.
        unlink(ca)
        publisher.start()
        defer { Task { await publisher.stop() } }
        try LiveHarness.waitFor("status names the TLS failure", timeout: 20) {
            publisher.state.tlsFailure?.contains("mqtt_ca_file \(ca)") == true
        }
        let status = StatusReport.uplinks([:], mqtt: publisher.state)
        #expect(status?.mqtt?.lastError?.contains("TLS could not be set up") == true)
        #expect(publisher.state.connected == false)
        // Back again (still no CA a handshake can use): the backoff's retry sets TLS up, and
        // the connection that follows is TLS, refused by the client itself, never MQTT.
        try garbage.write(toFile: ca, atomically: true, encoding: .utf8)
        try LiveHarness.waitFor("a connection after the retry", timeout: 60) {
            !capture.connections.isEmpty && publisher.state.tlsFailure == nil
        }
        for bytes in capture.connections {
            #expect(bytes.first != 0x10, "an MQTT CONNECT went out in plaintext")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains(secret) && !text.contains("MQTT"), "plaintext on the wire: \(bytes.prefix(64))")
        }
    }
}
