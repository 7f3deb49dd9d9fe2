import Foundation
import GPSTrackDaemon
import Testing

/// A remote address the machine forbids, as the unit's `IPAddressDeny=` would: the daemon runs
/// in a network namespace of its own (`unshare --net`) where nftables drops output to one
/// documentation address, the way systemd's cgroup filter drops it. A TCP connect there does not
/// fail, it times out; the daemon must say so once, naming the address and the drop-in.
@Suite(.serialized, .needs([.gpsfake, .journal, .root] + Need.nft))
struct NetworkAccessTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func aForbiddenBrokerIsNamedOnceWithTheDropIn() throws {
        let forbidden = "192.0.2.10"
        let allowed = "192.0.2.20"
        let name = "netaccess-\(UInt32.random(in: 0..<UInt32.max))"
        let conf = try ExecutableRunner.temporaryFile(
            "\(name).conf",
            contents: """
                gpsd = \(allowed):2947
                mqtt_host = \(forbidden)
                mqtt_port = 1883
                no_data_timeout_s = 2
                """)
        // One SYN retry: a blocked connect gives up after a few seconds, not two minutes.
        let (process, errors, started) = try LiveHarness.daemonInNetworkNamespace(
            config: conf, addresses: [forbidden, allowed], dropped: forbidden,
            extraSetup: ["sysctl -qw net.ipv4.tcp_syn_retries=1"])
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let entries = { try LiveHarness.journal(["_PID=\(process.processIdentifier)"], since: started) }
        let forbiddenEntries = { try entries().filter { $0["GPSTRACK_EVENT"] as? String == "network_forbidden" } }
        try LiveHarness.waitFor("the network_forbidden entry", timeout: 20) { try !forbiddenEntries().isEmpty }
        // The daemon goes on trying (gpsd refused, the broker timing out): a second connect to
        // the broker under way (a new local end); still one entry.
        var attempts: Set<String> = []
        try LiveHarness.waitFor("a second connect to the broker", timeout: 60) {
            attempts.formUnion(LiveHarness.connectsUnderWay(process.processIdentifier, to: "0A0200C0:075B"))
            return try entries().contains { $0["GPSTRACK_EVENT"] as? String == "gpsd_lost" } && attempts.count >= 2
        }
        let found = try forbiddenEntries()
        #expect(found.count == 1, "one entry, for the broker only: \(found.map { $0["MESSAGE"] ?? "" })")
        let entry = try #require(found.first)
        let message = entry["MESSAGE"] as? String ?? ""
        #expect(entry["PRIORITY"] as? String == "3")
        #expect(entry["GPSTRACK_ADDRESS"] as? String == forbidden)
        #expect(message.contains("MQTT broker") && message.contains(forbidden))
        #expect(
            message.contains("/etc/systemd/system/gpstrackd.service.d/")
                && message.contains("IPAddressAllow=\(forbidden)"))
        #expect(!message.contains(allowed))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0,
            "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
    }
}
