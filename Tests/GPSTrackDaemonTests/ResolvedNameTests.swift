import Foundation
import Testing

/// gpsd and the broker named by a host name with several addresses, the names given by a hosts
/// file bind-mounted over /etc/hosts in a mount namespace of the daemon's own (`unshare
/// --mount`; no name server needed): every address is tried in turn (gpstrackd.conf(5),
/// *gpsd*), and a forbidden address of a name is named with the name (gpstrackd(8), SYSTEMD).
@Suite(.serialized, .needs([.gpsfake, .journal, .root] + Need.nft))
struct ResolvedNameTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func everyAddressOfTheNameIsTriedInTurn() throws {
        // gpsd listens on 127.0.0.1 only; the name's other address, 127.0.0.2, refuses, and a
        // gai.conf of the namespace's own sorts it first (glibc would put it last).
        let name = "gpsd-multi-\(getpid())"
        let hosts = try ExecutableRunner.temporaryFile(
            "\(name).hosts", contents: "127.0.0.1 \(name)\n127.0.0.2 \(name)\n")
        let gai = try ExecutableRunner.temporaryFile(
            "\(name).gai.conf", contents: "precedence ::ffff:127.0.0.2/128 100\nprecedence ::ffff:0:0/96 10\n")
        let trace = LiveDaemonTests.walk(seconds: 200, seed: 17)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(
            log: try LiveHarness.nmeaFile("\(name).nmea", fixes: trace.fixes), port: port, cycle: 0.02)
        defer { feed.stop() }
        // gpsd up first: a refusal then comes from the name's first address alone.
        try LiveHarness.waitFor("gpsd on 127.0.0.1:\(port)", timeout: 30) { LiveHarness.onLoopback(port, connect) }
        let conf = try ExecutableRunner.temporaryFile(
            "\(name).conf", contents: "gpsd = \(name):\(port)\nno_data_timeout_s = 60\npedometer = off\n")
        let dir = conf.replacingOccurrences(of: ".conf", with: "")
        let process = Process()
        LiveHarness.unmasked(
            process, "/usr/bin/unshare",
            [
                "--mount", "/bin/sh", "-c",
                "mount --bind \(hosts) /etc/hosts && mount --bind \(gai) /etc/gai.conf && exec \"$0\" \"$@\"",
                ExecutableRunner.binary, "--config", conf, "--log", "journal", "--socket", dir + ".sock",
                "--state-dir", dir + ".state",
            ])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let events = {
            try LiveHarness.journal(["_PID=\(process.processIdentifier)"], since: started).compactMap {
                $0["GPSTRACK_EVENT"] as? String
            }
        }
        try LiveHarness.waitFor("fixes through the name's second address", timeout: 60) {
            let reply = try? SocketClient(path: dir + ".sock").request(#"{"cmd":"status"}"#)
            return (reply?["counters"] as? [String: Any])?["fixes_accepted"] as? Int ?? 0 >= 10
        }
        let seen = try events()
        #expect(seen.contains("gpsd_connected"))
        #expect(!seen.contains("gpsd_lost"), "the refused first address is no outage: \(seen)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aForbiddenAddressOfABrokerNameIsNamedWithTheName() throws {
        let forbidden = "192.0.2.60"
        let allowed = "192.0.2.61"
        let name = "broker-\(getpid())"
        let conf = try ExecutableRunner.temporaryFile(
            "netname-\(UInt32.random(in: 0..<UInt32.max)).conf",
            contents: """
                gpsd = 127.0.0.1:2947
                mqtt_host = \(name)
                mqtt_port = 1883
                no_data_timeout_s = 2
                """)
        let (process, errors, started) = try LiveHarness.daemonInNetworkNamespace(
            config: conf, addresses: [forbidden, allowed], dropped: forbidden,
            extraSetup: ["sysctl -qw net.ipv4.tcp_syn_retries=1"],
            hosts: "\(forbidden) \(name)\n\(allowed) \(name)\n")
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let forbiddenEntries = {
            try LiveHarness.journal(["_PID=\(process.processIdentifier)"], since: started).filter {
                $0["GPSTRACK_EVENT"] as? String == "network_forbidden"
            }
        }
        try LiveHarness.waitFor("the network_forbidden entry", timeout: 30) { try !forbiddenEntries().isEmpty }
        // The check is done when the broker's connection has been tried: still one entry.
        try LiveHarness.waitFor("the daemon's first attempts", timeout: 30) {
            try LiveHarness.journal(["_PID=\(process.processIdentifier)"], since: started).contains {
                $0["GPSTRACK_EVENT"] as? String == "gpsd_lost"
            }
        }
        let found = try forbiddenEntries()
        #expect(found.count == 1, "one entry, for the forbidden address only: \(found.map { $0["MESSAGE"] ?? "" })")
        let entry = try #require(found.first)
        let message = entry["MESSAGE"] as? String ?? ""
        #expect(entry["PRIORITY"] as? String == "3")
        #expect(entry["GPSTRACK_ADDRESS"] as? String == forbidden)
        #expect(entry["GPSTRACK_HOST"] as? String == name)
        #expect(message.contains("MQTT broker \(name) (\(forbidden)) port 1883"), "\(message)")
        #expect(message.contains("IPAddressAllow=\(forbidden)") && !message.contains(allowed), "\(message)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0,
            "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
    }
}
