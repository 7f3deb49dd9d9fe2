import GPSTrackCore
import GPSTrackProtocol

/// The entities one box announces, from what its configuration has: the tracker, the sensors
/// and binary sensors every box has, those of its inputs and pedometer, one sensor per fence,
/// and the buttons its broker commands allow.
struct HAEntityList {
    /// What the configuration has, as the entities need it.
    struct Setup: Sendable, Equatable {
        var topics: HATopics
        var deviceName: String
        var version: String
        var pedometer = false
        var ignition = false
        var power = false
        /// Where the buttons publish (OwnTracks' `<base>/cmd`) and which acknowledgements the
        /// broker's allow list lets through; nil: no buttons.
        var commandTopic: String?
        var buttons: [Button] = []
    }

    /// A dashboard button: a broker command published as it is on `<base>/cmd`.
    enum Button: String, Sendable, CaseIterable {
        case guardAck = "guard_ack"
        case anchorAck = "anchor_ack"

        var command: MQTTCommand {
            switch self {
            case .guardAck: .guardAck
            case .anchorAck: .anchor(.ack)
            }
        }
        var title: String {
            switch self {
            case .guardAck: "Acknowledge guard alarm"
            case .anchorAck: "Acknowledge anchor alarm"
            }
        }
    }

    /// At most this many fences get a sensor each, the first in file order, so that a box of
    /// thousands of fences does not flood HA (gpstrackd(8), HOME ASSISTANT).
    static let maxFenceEntities = 64
    /// Longest object id: `fence_` and a fence id made safe.
    static let maxObjectBytes = 80

    /// An object id HA takes: `[a-zA-Z0-9_-]`, not empty.
    static func isObject(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= maxObjectBytes && s.unicodeScalars.allSatisfy(HADiscoveryConfig.isNodeScalar)
    }

    /// Each fence's object id (`fence_<id made safe>`, a number added where two ids make the
    /// same), in file order, at most `maxFenceEntities`.
    static func fenceObjects(_ fences: [Fence]?) -> [(fence: Fence, object: String)] {
        var taken: Set<String> = []
        var out: [(Fence, String)] = []
        for fence in (fences ?? []).prefix(maxFenceEntities) {
            let safe = String(HADiscoveryConfig.safeNodeID(fence.id).prefix(maxObjectBytes - 12))
            var object = "fence_" + safe
            var n = 2
            while taken.contains(object) {
                object = "fence_\(safe)_\(n)"
                n += 1
            }
            taken.insert(object)
            out.append((fence, object))
        }
        return out
    }

    /// Every entity, in the device page's order.
    static func entities(_ setup: Setup, fences: [Fence]?) -> [HAEntity] {
        let t = setup.topics
        let device = HAConfig.Device(
            identifiers: ["gpstrackd_\(t.node)"], name: setup.deviceName, swVersion: setup.version)
        func entity(
            _ component: HAEntity.Component, _ object: String, _ name: String, value: String? = nil,
            _ edit: (inout HAConfig) -> Void = { _ in }
        ) -> HAEntity {
            var c = HAConfig(
                name: name, uniqueID: "gpstrackd_\(t.node)_\(object)", objectID: "gpstrackd_\(t.node)_\(object)",
                stateTopic: component == .button ? nil : t.state, availability: [.init(topic: t.availability)],
                device: device, origin: HAConfig.Origin(swVersion: setup.version))
            c.valueTemplate = value.map { "{{ value_json.\($0) }}" }
            edit(&c)
            return HAEntity(component: component, object: object, config: c)
        }
        func sensor(
            _ object: String, _ name: String, _ deviceClass: String?, _ stateClass: String, _ unit: String?,
            precision: Int? = nil, diagnostic: Bool = false, icon: String? = nil
        ) -> HAEntity {
            entity(.sensor, object, name, value: object) { c in
                c.deviceClass = deviceClass
                c.stateClass = stateClass
                c.unit = unit
                c.precision = precision
                c.entityCategory = diagnostic ? "diagnostic" : nil
                c.icon = icon
            }
        }
        func binary(_ object: String, _ name: String, _ deviceClass: String?, diagnostic: Bool = false) -> HAEntity {
            entity(.binarySensor, object, name, value: object) { c in
                c.deviceClass = deviceClass
                c.entityCategory = diagnostic ? "diagnostic" : nil
            }
        }
        var list = [
            entity(.deviceTracker, "tracker", "Location") { c in
                c.stateTopic = t.zone
                c.sourceType = "gps"
                c.jsonAttributesTopic = t.state
                // No fix: no attributes (HA keeps none rather than warning on a null).
                c.jsonAttributesTemplate = "{{ (value_json.tracker or {}) | tojson }}"
            },
            sensor("odometer_km", "Odometer", "distance", "total_increasing", "km", precision: 2),
            sensor("today_km", "Distance today", "distance", "total_increasing", "km", precision: 2),
            sensor("trip_km", "Trip distance", "distance", "measurement", "km", precision: 2),
            sensor("trip_s", "Trip duration", "duration", "measurement", "s", precision: 0),
            sensor("speed_kmh", "Speed", "speed", "measurement", "km/h", precision: 1),
            sensor(
                "satellites", "Satellites used", nil, "measurement", nil, diagnostic: true,
                icon: "mdi:satellite-variant"),
            sensor("hdop", "HDOP", nil, "measurement", nil, precision: 1, diagnostic: true, icon: "mdi:crosshairs-gps"),
            sensor("fix_age_s", "Fix age", "duration", "measurement", "s", precision: 0, diagnostic: true),
            binary("moving", "Moving", "moving"),
            binary("fix", "GPS fix", "connectivity", diagnostic: true),
            binary("guard_armed", "Guard armed", nil),
            binary("guard_breach", "Guard breach", "tamper"),
            binary("anchor_alarm", "Anchor alarm", "safety"),
            binary("overspeed", "Overspeed", "problem"),
        ]
        if setup.pedometer { list.append(sensor("steps", "Steps", nil, "total_increasing", "steps", icon: "mdi:walk")) }
        if setup.power {
            list.append(sensor("battery_pct", "Battery", "battery", "measurement", "%"))
            list.append(binary("external_power", "External power", "power"))
        }
        if setup.ignition {
            list.append(sensor("engine_h", "Engine hours", "duration", "total_increasing", "h", precision: 2))
            list.append(binary("ignition", "Ignition", "power"))
        }
        for (fence, object) in fenceObjects(fences) {
            list.append(
                entity(.sensor, object, "Fence \(fence.name ?? fence.id)") { c in
                    c.valueTemplate = "{{ value_json.fences['\(object)'] | default('unknown') }}"
                    c.deviceClass = "enum"
                    c.options = HAState.FenceState.allCases.map(\.rawValue)
                    c.icon = "mdi:map-marker-radius"
                })
        }
        if let command = setup.commandTopic {
            for button in setup.buttons {
                list.append(
                    entity(.button, button.rawValue, button.title) { c in
                        c.commandTopic = command
                        c.payloadPress = button.command.json
                    })
            }
        }
        return list
    }
}
