import Foundation
import Testing

/// The footprint issue's promise: the geodesics come from GeographicLib (no PROJ and what it
/// drags in), and libmosquitto with its TLS libraries is mapped only when MQTT is configured
/// (dlopen), libcurl only when an HTTP uplink is, the absence of either then a configuration
/// error naming the package (exit 78).
@Suite struct OptionalLibraryTests {
    static let absent = [
        "libproj", "libcurl", "libtiff", "libgnutls", "libkrb5", "libldap", "libmosquitto", "libssl", "libcrypto",
        "libsodium", "libgeos",
    ]

    static func mapped(_ pid: Int32) -> String {
        // Read to the end: a file in /proc has no size for Foundation's one-read helpers.
        String(
            decoding: FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    /// Runs the daemon with `arguments` (and a state directory beside `stateBase`) in a mount
    /// namespace of its own where `library` is /dev/null: the real loader's failure, no hook in
    /// the daemon.
    static func runHiding(_ library: String, stateBase: String, _ arguments: String) throws -> ExecutableRunner.Result {
        let daemon =
            "'\(ExecutableRunner.binary)' --log stderr --gpsd 127.0.0.1:1 \(arguments)"
            + " --state-dir '\(stateBase)' --socket '\(stateBase).sock'"
        return try ExecutableRunner.run(
            ["--mount", "sh", "-c", "mount --bind /dev/null \(library) && exec \(daemon)"],
            executable: "/usr/bin/unshare")
    }

    /// libgps and GeographicLib are linked in from their archives (as gpsd's own clients link
    /// libgps), SQLite and libsystemd as shared libraries; none of the optional ones.
    @Test func theDaemonLinksGeographicLibAndNoneOfTheOptionalLibraries() throws {
        let r = try ExecutableRunner.run([ExecutableRunner.binary], executable: "/usr/bin/ldd")
        #expect(r.status == 0, "ldd: \(r.stderr)")
        #expect(
            r.stdout.contains("libsystemd") && r.stdout.contains("libsqlite3"), "ldd lists what is linked:\n\(r.stdout)"
        )
        for lib in Self.absent + ["libgps", "libGeographicLib", "libdbus"] {
            #expect(!r.stdout.contains(lib), "gpstrackd links \(lib):\n\(r.stdout)")
        }
        // They are in the binary itself: GeographicLib's geodesic and libgps's unpacker.
        let binary = try Data(contentsOf: URL(fileURLWithPath: ExecutableRunner.binary))
        for symbol in ["_ZN13GeographicLib8Geodesic5WGS84Ev", "libgps_json_unpack"] {
            #expect(binary.range(of: Data(symbol.utf8)) != nil, "\(symbol) is not in gpstrackd")
        }
    }

    @Test func libmosquittoIsMappedOnlyWithMQTTConfigured() throws {
        let plain = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
        try plain.waitFor("started")
        let plainMaps = Self.mapped(plain.pid)
        #expect(plainMaps.contains("libsqlite3"), "the maps are read: \(plainMaps.prefix(400))")
        for lib in ["libmosquitto", "libssl", "libcrypto", "libsodium", "libcurl", "libgeos"] {
            #expect(!plainMaps.contains(lib), "\(lib) mapped without MQTT or an HTTP uplink configured")
        }
        #expect(plain.stop() == 0)

        // A broker nobody runs: the library is loaded all the same, at start.
        let port = LiveHarness.freePort()
        let mqtt = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:1"],
            extraConfig: "mqtt_host = 127.0.0.1\nmqtt_port = \(port)\n")
        try mqtt.waitFor("started")
        #expect(Self.mapped(mqtt.pid).contains("libmosquitto.so"), "libmosquitto not mapped with mqtt_host set")
        #expect(mqtt.stop() == 0)
    }

    @Test func libcurlIsMappedOnlyWithAnHTTPUplinkConfigured() throws {
        let port = LiveHarness.freePort()
        let traccar = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:1"],
            extraConfig: "traccar_url = http://127.0.0.1:\(port)/\ntraccar_device_id = box\n")
        try traccar.waitFor("started")
        let maps = Self.mapped(traccar.pid)
        #expect(maps.contains("libcurl.so"), "libcurl not mapped with traccar_url set")
        #expect(!maps.contains("libmosquitto"), "libmosquitto mapped without MQTT configured")
        #expect(traccar.stop() == 0)
    }

    /// libcurl hidden as libmosquitto is below: an uplink configured without it is exit 78
    /// naming the key's line and the package.
    @Test(.enabled(if: getuid() == 0, "a private mount namespace needs root"))
    func anUplinkWithoutLibcurlIsAConfigurationErrorNamingThePackage() throws {
        let lib = "/usr/lib/x86_64-linux-gnu/libcurl.so.4"
        try #require(
            FileManager.default.fileExists(atPath: lib),
            "libcurl4 is installed with libcurl4-openssl-dev (scripts/deps.sh)")
        let conf = try ExecutableRunner.temporaryFile(
            "nocurl-\(getpid()).conf", contents: "traccar_device_id = box\ntraccar_url = http://127.0.0.1:1/\n")
        let state = conf.replacingOccurrences(of: ".conf", with: ".state")
        let r = try Self.runHiding(lib, stateBase: state, "--config '\(conf)'")
        #expect(r.status == 78, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("\(conf):2: traccar_url is set but libcurl cannot be loaded"), "\(r.stderr)")
        #expect(r.stderr.contains("install the package libcurl4"), "\(r.stderr)")
    }

    /// libmosquitto made unreadable in a mount namespace of the daemon's own (/dev/null bound
    /// over it): the real loader's failure, no hook in the daemon.
    @Test(.enabled(if: getuid() == 0, "a private mount namespace needs root"))
    func mqttWithoutLibmosquittoIsAConfigurationErrorNamingThePackage() throws {
        let lib = "/usr/lib/x86_64-linux-gnu/libmosquitto.so.1"
        try #require(FileManager.default.fileExists(atPath: lib), "libmosquitto1 is installed by scripts/deps.sh")
        let conf = try ExecutableRunner.temporaryFile("nomosq-\(getpid()).conf", contents: "mqtt_host = 127.0.0.1\n")
        let state = conf.replacingOccurrences(of: ".conf", with: ".state")
        let r = try Self.runHiding(lib, stateBase: state, "--config '\(conf)'")
        #expect(r.status == 78, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("\(conf):1: mqtt_host is set but libmosquitto cannot be loaded"), "\(r.stderr)")
        #expect(r.stderr.contains("install the package libmosquitto1"), "\(r.stderr)")
    }

    /// The standard library's string searches (`contains("ab")`, `firstRange(of:)`...) live in
    /// _StringProcessing, which brings the regular-expression engine (2.2 MB of the shipped
    /// binary) into the static link: none of the daemon's modules may call it.
    @Test func theDaemonsModulesCallNothingOfStringProcessing() throws {
        let bin = URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent()
        var objects: [String] = []
        for module in ["GPSTrackProtocol", "GPSTrackCore", "GPSTrackDaemon", "gpstrackd"] {
            let dir = bin.appendingPathComponent("\(module).build")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            objects += names.filter { $0.hasSuffix(".o") }.map { dir.appendingPathComponent($0).path }
        }
        try #require(objects.count > 50, "the modules' objects are beside the binary: \(objects.count) in \(bin.path)")
        let r = try ExecutableRunner.run(["-u"] + objects, executable: "/usr/bin/nm")
        #expect(r.status == 0, "nm: \(r.stderr)")
        let calls = r.lines.filter { $0.contains("17_StringProcessing") || $0.contains("12_RegexParser") }
        #expect(calls.isEmpty, "calls into _StringProcessing:\n\(calls.joined(separator: "\n"))")
    }
}
