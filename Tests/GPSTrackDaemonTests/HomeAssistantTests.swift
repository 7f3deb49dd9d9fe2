import Foundation
import GPSTrackCore
import GPSTrackJSON
import Synchronization
import Testing

@testable import GPSTrackDaemon

/// Home Assistant's discovery in-process: the keys, the entities as HA's MQTT documentation
/// asks for them, the topics read back, the broker's guard acknowledgement, and what arrives on
/// HA's topics (counted, answered, never applied) on a real outbox (SQLite).
@Suite struct HomeAssistantTests {
    static let topics = HATopics(prefix: "homeassistant", node: "van")
    static let fences = [
        Fence(
            index: 0, id: "home", name: "Home", shape: .circle(center: .init(latitude: 1, longitude: 2), radiusM: 50)),
        Fence(index: 1, id: "a.b", shape: .circle(center: .init(latitude: 1, longitude: 3), radiusM: 50)),
        Fence(index: 2, id: "a_b", shape: .circle(center: .init(latitude: 1, longitude: 4), radiusM: 50)),
    ]

    /// HA's publisher, not started, on a state database of its own (its folder, to remove).
    static func publisher() throws -> (MQTTPublisher, String) {
        let dir = NSTemporaryDirectory() + "ha-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var mqtt = MQTTConfig()
        mqtt.host = "127.0.0.1"
        let publisher = try MQTTPublisher(
            config: mqtt, file: StateDatabase(path: dir + "/state.db"), journal: Journal(target: .stderr),
            configFile: "t.conf", role: .homeAssistant(base: topics.base))
        return (publisher, dir)
    }

    @Test func theKeysAreCheckedWhereTheyAreRead() throws {
        let ok = try ConfigParser.parse(
            "mqtt_host = b\nha_discovery = on\nha_discovery_prefix = ha/x\nha_node_id = van-1\nha_min_interval_s = 2\n",
            file: "c.conf")
        #expect(ok.ha.enabled && ok.ha.prefix == "ha/x" && ok.ha.nodeID == "van-1" && ok.ha.minIntervalS == 2)
        let refused: [(String, String)] = [
            ("ha_discovery = on\n", "c.conf:1: ha_discovery = on needs mqtt_host (HA's broker)"),
            ("ha_discovery_prefix = a/+/b\n", "c.conf:1: ha_discovery_prefix: expected topic levels"),
            ("ha_discovery_prefix = a//b\n", "c.conf:1: ha_discovery_prefix: expected topic levels"),
            ("ha_discovery_prefix = $SYS\n", "c.conf:1: ha_discovery_prefix: expected topic levels"),
            ("ha_node_id = my van\n", "c.conf:1: ha_node_id: expected letters, digits"),
            ("ha_min_interval_s = 0.5\n", "c.conf:1: ha_min_interval_s: expected seconds >= 1"),
            ("ha_min_interval_s = 3601\n", "c.conf:1: ha_min_interval_s: at most 3600"),
            (
                "mqtt_host = b\nmqtt_secret_file = /s\nha_discovery = on\n",
                "c.conf:3: ha_discovery = on with mqtt_secret_file needs ha_discovery_plaintext = yes"
            ),
        ]
        for (text, start) in refused {
            #expect(throws: ConfigError.self, "\(text)") { _ = try ConfigParser.parse(text, file: "c.conf") }
            do { _ = try ConfigParser.parse(text, file: "c.conf") } catch {
                #expect("\(error)".hasPrefix(start), "\(error)")
            }
        }
        let clear = try ConfigParser.parse(
            "mqtt_host = b\nmqtt_secret_file = /s\nha_discovery = on\nha_discovery_plaintext = yes\n", file: "c.conf")
        #expect(clear.ha.plaintext)
        #expect(HADiscoveryConfig.safeNodeID("my box.local") == "my_box_local")
        #expect(HADiscoveryConfig.safeNodeID("") == "gpstrackd")
    }

    /// What each entity must be, written out from the issue and HA's MQTT documentation.
    @Test func everyEntityHasItsIdsClassesUnitsAndTheDevice() throws {
        var setup = HAEntityList.Setup(topics: Self.topics, deviceName: "van", version: "9.9")
        setup.ignition = true
        setup.power = true
        setup.commandTopic = "owntracks/u/van/cmd"
        setup.buttons = [.guardAck, .anchorAck]
        let list = HAEntityList.entities(setup, fences: Self.fences)
        let expected: [(String, String, String?, String?, String?)] = [
            ("device_tracker", "tracker", nil, nil, nil),
            ("sensor", "odometer_km", "distance", "total_increasing", "km"),
            ("sensor", "today_km", "distance", "total_increasing", "km"),
            ("sensor", "trip_km", "distance", "measurement", "km"),
            ("sensor", "trip_s", "duration", "measurement", "s"),
            ("sensor", "speed_kmh", "speed", "measurement", "km/h"),
            ("sensor", "satellites", nil, "measurement", nil),
            ("sensor", "hdop", nil, "measurement", nil),
            ("sensor", "fix_age_s", "duration", "measurement", "s"),
            ("binary_sensor", "moving", "moving", nil, nil),
            ("binary_sensor", "fix", "connectivity", nil, nil),
            ("binary_sensor", "guard_armed", nil, nil, nil),
            ("binary_sensor", "guard_breach", "tamper", nil, nil),
            ("binary_sensor", "anchor_alarm", "safety", nil, nil),
            ("binary_sensor", "overspeed", "problem", nil, nil),
            ("sensor", "battery_pct", "battery", "measurement", "%"),
            ("binary_sensor", "external_power", "power", nil, nil),
            ("sensor", "engine_h", "duration", "total_increasing", "h"),
            ("binary_sensor", "ignition", "power", nil, nil),
            ("sensor", "fence_home", "enum", nil, nil),
            ("sensor", "fence_a_b", "enum", nil, nil),
            ("sensor", "fence_a_b_2", "enum", nil, nil),
            ("button", "guard_ack", nil, nil, nil),
            ("button", "anchor_ack", nil, nil, nil),
        ]
        #expect(list.map { "\($0.component.rawValue)/\($0.object)" } == expected.map { "\($0.0)/\($0.1)" })
        for (entity, want) in zip(list, expected) {
            let json = try #require(ExecutableRunner.json(ReplyEncoder.encode(entity.config)))
            #expect(entity.topic(Self.topics) == "homeassistant/\(want.0)/van/\(want.1)/config")
            #expect(json["unique_id"] as? String == "gpstrackd_van_\(want.1)")
            #expect(json["device_class"] as? String == want.2, "\(want.1)")
            #expect(json["state_class"] as? String == want.3, "\(want.1)")
            #expect(json["unit_of_measurement"] as? String == want.4, "\(want.1)")
            #expect(
                (json["availability"] as? [[String: Any]])?.first?["topic"] as? String == "gpstrackd/van/availability")
            let device = json["device"] as? [String: Any] ?? [:]
            #expect(device["identifiers"] as? [String] == ["gpstrackd_van"] && device["sw_version"] as? String == "9.9")
            #expect(device["manufacturer"] as? String == "gpstrackd" && device["model"] != nil && device["name"] != nil)
            #expect((json["origin"] as? [String: Any])?["name"] as? String == "gpstrackd")
        }
        let tracker = try #require(ExecutableRunner.json(ReplyEncoder.encode(list[0].config)))
        #expect(tracker["source_type"] as? String == "gps" && tracker["state_topic"] as? String == "gpstrackd/van/zone")
        #expect(tracker["json_attributes_topic"] as? String == "gpstrackd/van/state")
        let fence = try #require(ExecutableRunner.json(ReplyEncoder.encode(list[19].config)))
        #expect(fence["options"] as? [String] == ["inside", "outside", "unknown"])
        #expect(fence["value_template"] as? String == "{{ value_json.fences['fence_home'] | default('unknown') }}")
        let ack = try #require(ExecutableRunner.json(ReplyEncoder.encode(list[22].config)))
        #expect(ack["command_topic"] as? String == "owntracks/u/van/cmd")
        #expect(ack["payload_press"] as? String == #"{"_type":"cmd","action":"guard","ack":true}"#)
        #expect(ack["state_topic"] == nil)
        // Without the command channel: no buttons; without inputs: none of theirs.
        let bare = HAEntityList.entities(
            HAEntityList.Setup(topics: Self.topics, deviceName: "v", version: "1"), fences: nil)
        #expect(bare.count == 15 && !bare.contains { $0.component == .button })
    }

    @Test func onlyThisNodesAnnouncementsAreReadBack() {
        let t = HATopics(prefix: "ha/x", node: "van")
        #expect(t.announced("ha/x/sensor/van/fence_ring/config")! == (.sensor, "fence_ring"))
        #expect(t.announced("ha/x/binary_sensor/van/moving/config")! == (.binarySensor, "moving"))
        for other in [
            "ha/x/sensor/truck/fence_ring/config", "ha/x/sensor/van/fence_ring/state", "ha/y/sensor/van/a/config",
            "ha/x/light/van/a/config", "ha/x/sensor/van/a b/config", "ha/x/sensor/van/config", "ha/sensor/van/a/config",
        ] {
            #expect(t.announced(other) == nil, "\(other)")
        }
    }

    @Test func theBrokerAcknowledgesTheGuardWithAckTrueAlone() {
        #expect(MQTTCommand.parse(Array(#"{"_type":"cmd","action":"guard","ack":true}"#.utf8)) == .success(.guardAck))
        #expect(MQTTCommand.guardAck.json == #"{"_type":"cmd","action":"guard","ack":true}"#)
        for bad in [
            #"{"_type":"cmd","action":"guard","ack":false}"#, #"{"_type":"cmd","action":"guard","ack":true,"on":true}"#,
        ] {
            guard case .failure(let r) = MQTTCommand.parse(Array(bad.utf8)) else {
                Issue.record("\(bad) taken")
                continue
            }
            #expect(r.action == "guard" && r.reason.contains("ack"), "\(r)")
        }
    }

    /// What arrives on HA's topics, on a real outbox: HA's birth announces again, anything else
    /// there is counted and never applied, a foreign state is answered with ours, a config of an
    /// entity no longer in force is cleared.
    @Test func badMessagesAreCountedAndStaleAnnouncementsRemoved() throws {
        let (publisher, dir) = try Self.publisher()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let now = Mutex(1000.0)
        let ha = HADiscovery(
            publisher: publisher, topics: Self.topics, minIntervalS: 10, journal: Journal(target: .stderr),
            clock: { now.withLock { $0 } })
        let setup = HAEntityList.Setup(topics: Self.topics, deviceName: "van", version: "1")
        ha.setEntities(HAEntityList.entities(setup, fences: Self.fences))
        // Every message waiting, in order (handed out and given back: none is in flight).
        func queued() -> [Outbox.Message] {
            let all = publisher.outbox.next(10_000)
            publisher.outbox.release(all.map(\.id))
            return all
        }
        #expect(queued().count == 18 && queued().allSatisfy { $0.kind == .haConfig })
        // Nothing of a state before the first; then a state, its echo ignored.
        var state = HAState()
        state.odometerKm = 1.5
        ha.offer(state, fixReceived: true)
        let ours = try #require(queued().last { $0.kind == .haState }?.payload)
        #expect(ExecutableRunner.json(ours)?["odometer_km"] as? Double == 1.5)
        ha.take(topic: Self.topics.state, payload: Array(ours.utf8), length: ours.utf8.count)
        #expect(ha.status.badMessages == 0)
        // Bad: HA's status not a word of HA's; the state topic too long, not JSON, not ours.
        let foreign = #"{"odometer_km":99}"#
        for (topic, payload, length) in [
            (Self.topics.status, Array("{x".utf8), 2), (Self.topics.state, nil, 5_000_000),
            (Self.topics.state, Array("nope".utf8), 4), (Self.topics.state, Array(foreign.utf8), foreign.utf8.count),
        ] as [(String, [UInt8]?, Int)] {
            ha.take(topic: topic, payload: payload, length: length)
        }
        #expect(ha.status.badMessages == 4)
        let states = queued().filter { $0.kind == .haState }
        #expect(
            states.count == 4
                && states.allSatisfy { ExecutableRunner.json($0.payload)?["odometer_km"] as? Double == 1.5 })
        // HA's birth: every config again.
        let before = queued().count
        ha.take(topic: Self.topics.status, payload: Array("online".utf8), length: 6)
        #expect(queued().count == before + 18 + 1 + 1 && ha.status.births == 1)
        // A retained config of a fence gone is cleared; ours and other nodes' are left.
        ha.take(topic: "homeassistant/sensor/van/fence_gone/config", payload: Array("{}".utf8), length: 2)
        ha.take(topic: "homeassistant/sensor/van/fence_home/config", payload: Array("{}".utf8), length: 2)
        ha.take(topic: "homeassistant/sensor/truck/fence_gone/config", payload: Array("{}".utf8), length: 2)
        let cleared = queued().filter { $0.kind == .haConfig && $0.payload.isEmpty }
        #expect(cleared.map(\.topic) == ["homeassistant/sensor/van/fence_gone/config"] && ha.status.removed == 1)
        // A fence removed at a reload: its config cleared at once.
        ha.setEntities(HAEntityList.entities(setup, fences: Array(Self.fences.prefix(2))))
        #expect(
            queued().filter { $0.payload.isEmpty }.map(\.topic).last == "homeassistant/sensor/van/fence_a_b_2/config")
    }
}

extension HomeAssistantTests {
    /// The steps entity comes when the pedometer runs (its total known), not before; the
    /// tracker keeps its zone while the fix is lost.
    @Test func theStepsEntityComesWithThePedometerAndTheZoneStaysWhileTheFixIsLost() throws {
        let (publisher, dir) = try Self.publisher()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ha = HADiscovery(
            publisher: publisher, topics: Self.topics, minIntervalS: 1, journal: Journal(target: .stderr))
        let sink = HASink(
            discovery: ha, setup: HAEntityList.Setup(topics: Self.topics, deviceName: "van", version: "1"),
            tripMode: .auto)
        sink.fencesReplaced(Array(Self.fences.prefix(1)))
        var total: Int?
        sink.steps = { total }
        _ = sink.take(TrackerStep())
        #expect(ha.status.entities == 16)
        total = 42
        var tracker = Tracker()
        let home = Fix(
            mode: 3, time: 1_773_475_200, latitude: 1, longitude: 2, altitude: 10, eph: 5, speed: 0, track: 0)
        _ = tracker.ingest(home)
        _ = sink.take(
            TrackerStep(fix: home, tracker: tracker, fences: FenceFacts(inside: ["Home"]), hasFix: true))
        #expect(ha.status.entities == 17)
        _ = sink.take(TrackerStep(tracker: tracker, fences: FenceFacts(inside: []), hasFix: false))
        let messages = publisher.outbox.next(10_000)
        let zones = messages.filter { $0.kind == .haZone }.map(\.payload)
        #expect(zones == ["not_home", "Home"], "\(zones)")
        let last = try #require(messages.last { $0.kind == .haState }.flatMap { ExecutableRunner.json($0.payload) })
        #expect(last["steps"] as? Int == 42 && last["fix"] as? String == "OFF")
        #expect((last["fences"] as? [String: String]) == ["fence_home": "unknown"])
        #expect(messages.contains { $0.topic == "homeassistant/sensor/van/steps/config" })
    }
}
