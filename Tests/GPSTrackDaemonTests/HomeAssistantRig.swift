import Foundation
import Testing

/// A real Home Assistant 2024.1.6 (`scripts/ha-venv.sh`), its MQTT integration on the test's
/// broker with discovery on, its statestream republishing every entity's state and attributes
/// under `hastate/`; and a subscriber that keeps every message of HA's, gpstrackd's and the
/// statestream's topics.
enum HomeAssistantRig {
    /// HA's virtual environment, linked by scripts/ha-venv.sh.
    static let python = ExecutableRunner.packageRoot.appendingPathComponent(".build/ha-venv/bin/python3").path

    /// Waits while scripts/ha-venv.sh runs (`make test` starts it in the background); fails,
    /// naming why, when it failed or was never run.
    static func waitForVenv() throws {
        let build = ExecutableRunner.packageRoot.appendingPathComponent(".build").path
        let fm = FileManager.default
        try LiveHarness.waitFor("scripts/ha-venv.sh (Home Assistant's venv)", timeout: 1800) {
            if let failed = try? String(contentsOfFile: build + "/ha-venv.failed", encoding: .utf8) {
                throw VenvMissing(why: failed)
            }
            if fm.fileExists(atPath: build + "/ha-venv.pending") { return false }
            guard fm.isExecutableFile(atPath: python) else {
                throw VenvMissing(why: "no \(python): run scripts/ha-venv.sh (make test does)")
            }
            return true
        }
    }

    struct VenvMissing: Error, CustomStringConvertible {
        var why: String
        var description: String { "Home Assistant's venv: \(why)" }
    }

    /// One HA process on a configuration folder written before its first start.
    final class HA {
        private(set) var process = Process()
        let folder: String
        let httpPort: Int
        let log: String

        init(folder: String, brokerPort: Int, sub: Messages) throws {
            self.folder = folder
            httpPort = LiveHarness.freePort()
            log = folder + ".log"
            let script = ExecutableRunner.packageRoot.appendingPathComponent("Tests/ha/ha_config.py").path
            let made = try ExecutableRunner.run(
                [script, folder, String(brokerPort), String(httpPort)], executable: "/usr/bin/python3")
            #expect(made.status == 0, "\(made.stderr)")
            try start(sub: sub)
        }

        /// Starts HA and waits for its birth message (`homeassistant/status` `online`): its MQTT
        /// integration is connected and subscribed to discovery.
        func start(sub: Messages) throws {
            let births = sub.all("homeassistant/status").filter { $0 == "online" }.count
            process = Process()
            LiveHarness.unmasked(
                process, HomeAssistantRig.python, ["-m", "homeassistant", "-c", folder, "--skip-pip"])
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let handle = FileHandle(forWritingAtPath: log)
            handle?.seekToEndOfFile()
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            try LiveHarness.waitFor("Home Assistant's birth message (its log: \(log))", timeout: 180) {
                guard process.isRunning else { throw Exited(log: LiveHarness.Feed.tail(log)) }
                return sub.all("homeassistant/status").filter { $0 == "online" }.count > births
            }
        }

        struct Exited: Error, CustomStringConvertible {
            var log: String
            var description: String { "Home Assistant exited:\n\(log)" }
        }

        /// SIGTERM and its end: HA writes its registries (`.storage/`) as it stops.
        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        /// A registry HA wrote at its last stop (`core.device_registry`, `core.entity_registry`).
        func registry(_ name: String, _ list: String) -> [[String: Any]] {
            let text = (try? String(contentsOfFile: folder + "/.storage/" + name, encoding: .utf8)) ?? "{}"
            let json = ExecutableRunner.json(text)
            return (json?["data"] as? [String: Any])?[list] as? [[String: Any]] ?? []
        }

        deinit { stop() }
    }

    /// Every message on HA's, gpstrackd's and the statestream's topics, in order, as mosquitto_sub
    /// printed them (`%t<TAB>%p`, one a line).
    final class Messages {
        let process = Process()
        let file: String
        init(port: Int, file: String) throws {
            self.file = file
            _ = FileManager.default.createFile(atPath: file, contents: nil)
            LiveHarness.unmasked(
                process, "/usr/bin/mosquitto_sub",
                [
                    "-h", "127.0.0.1", "-p", String(port), "-q", "1", "-F", "%t\t%p", "-t", "hastate/#", "-t",
                    "homeassistant/#", "-t", "gpstrackd/#", "-t", "probe/#",
                ])
            process.standardOutput = FileHandle(forWritingAtPath: file)
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Subscribed once a probe came back through the broker.
            try LiveHarness.waitFor("the subscriber's probe", timeout: 30) {
                _ = try ExecutableRunner.run(
                    ["-h", "127.0.0.1", "-p", String(port), "-t", "probe/\(port)", "-m", "p"],
                    executable: "/usr/bin/mosquitto_pub")
                return !all("probe/\(port)").isEmpty
            }
        }

        /// (topic, payload) of every line so far.
        func lines() -> [(String, String)] {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else { return nil }
                return (String(parts[0]), String(parts[1]))
            }
        }

        func all(_ topic: String) -> [String] { lines().filter { $0.0 == topic }.map(\.1) }
        func last(_ topic: String) -> String? { all(topic).last }

        /// The statestream's last state of an entity (`sensor.gpstrackd_van_odometer_km`).
        func state(_ entity: String) -> String? {
            last("hastate/" + entity.replacingOccurrences(of: ".", with: "/") + "/state")
        }
        /// The statestream's last value of an attribute, as JSON text.
        func attribute(_ entity: String, _ name: String) -> String? {
            last("hastate/" + entity.replacingOccurrences(of: ".", with: "/") + "/" + name)
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        deinit { stop() }
    }
}
