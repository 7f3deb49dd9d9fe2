import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// One Home Assistant entity as MQTT discovery announces it: its component, its object id and
/// its config (the retained payload of `<prefix>/<component>/<node>/<object>/config`).
struct HAEntity: Sendable, Equatable {
    enum Component: String, Sendable, CaseIterable {
        case deviceTracker = "device_tracker"
        case sensor
        case binarySensor = "binary_sensor"
        case button
    }
    var component: Component
    var object: String
    var config: HAConfig

    /// Its discovery topic.
    func topic(_ topics: HATopics) -> String {
        "\(topics.prefix)/\(component.rawValue)/\(topics.node)/\(object)/config"
    }
}

/// The topics of one box: the discovery prefix, the node id, and gpstrackd's own under
/// `gpstrackd/<node>`.
struct HATopics: Sendable, Equatable {
    var prefix: String
    var node: String
    var base: String { "gpstrackd/\(node)" }
    var state: String { base + "/state" }
    /// The tracker's zone as plain text: HA 2024.1's MQTT device tracker takes the raw payload as
    /// its location, not its value template's result, so the zone cannot be read from `state`.
    var zone: String { base + "/zone" }
    var availability: String { base + "/availability" }
    /// HA's birth and last will.
    var status: String { prefix + "/status" }
    /// Every announcement of this node, whatever its component: read back to remove the ones
    /// the configuration no longer has.
    var announcements: String { "\(prefix)/+/\(node)/+/config" }

    /// The component and object of one of this node's announcement topics; nil for any other
    /// topic (another node's, a malformed one).
    func announced(_ topic: String) -> (HAEntity.Component, String)? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let prefixLevels = prefix.split(separator: "/").count
        guard levels.count == prefixLevels + 4, levels.prefix(prefixLevels).joined(separator: "/") == prefix,
            let component = HAEntity.Component(rawValue: levels[prefixLevels]), levels[prefixLevels + 1] == node,
            levels[prefixLevels + 3] == "config", HAEntityList.isObject(levels[prefixLevels + 2])
        else { return nil }
        return (component, levels[prefixLevels + 2])
    }
}

/// A discovery config: HA's own key names; absent keys are left out.
struct HAConfig: Encodable, Sendable, Equatable {
    var name: String
    var uniqueID: String
    var objectID: String
    var stateTopic: String?
    @Omitted var valueTemplate: String?
    @Omitted var jsonAttributesTopic: String?
    @Omitted var jsonAttributesTemplate: String?
    @Omitted var deviceClass: String?
    @Omitted var stateClass: String?
    @Omitted var unit: String?
    @Omitted var precision: Int?
    @Omitted var options: [String]?
    @Omitted var sourceType: String?
    @Omitted var commandTopic: String?
    @Omitted var payloadPress: String?
    @Omitted var entityCategory: String?
    @Omitted var icon: String?
    var availability: [Availability]
    var device: Device
    var origin: Origin

    struct Availability: Encodable, Sendable, Equatable { var topic: String }
    struct Device: Encodable, Sendable, Equatable {
        var identifiers: [String]
        var name: String
        var manufacturer = "gpstrackd"
        var model = "gpstrackd GPS tracker"
        var swVersion: String
        enum CodingKeys: String, CodingKey {
            case identifiers, name, manufacturer, model
            case swVersion = "sw_version"
        }
    }
    struct Origin: Encodable, Sendable, Equatable {
        var name = "gpstrackd"
        var swVersion: String
        enum CodingKeys: String, CodingKey {
            case name
            case swVersion = "sw_version"
        }
    }

    enum CodingKeys: String, CodingKey {
        case name
        case uniqueID = "unique_id"
        case objectID = "object_id"
        case stateTopic = "state_topic"
        case valueTemplate = "value_template"
        case jsonAttributesTopic = "json_attributes_topic"
        case jsonAttributesTemplate = "json_attributes_template"
        case deviceClass = "device_class"
        case stateClass = "state_class"
        case unit = "unit_of_measurement"
        case precision = "suggested_display_precision"
        case options
        case sourceType = "source_type"
        case commandTopic = "command_topic"
        case payloadPress = "payload_press"
        case entityCategory = "entity_category"
        case icon, availability, device, origin
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(uniqueID, forKey: .uniqueID)
        try c.encode(objectID, forKey: .objectID)
        if let stateTopic { try c.encode(stateTopic, forKey: .stateTopic) }
        try c.encode(_valueTemplate, forKey: .valueTemplate)
        try c.encode(_jsonAttributesTopic, forKey: .jsonAttributesTopic)
        try c.encode(_jsonAttributesTemplate, forKey: .jsonAttributesTemplate)
        try c.encode(_deviceClass, forKey: .deviceClass)
        try c.encode(_stateClass, forKey: .stateClass)
        try c.encode(_unit, forKey: .unit)
        try c.encode(_precision, forKey: .precision)
        try c.encode(_options, forKey: .options)
        try c.encode(_sourceType, forKey: .sourceType)
        try c.encode(_commandTopic, forKey: .commandTopic)
        try c.encode(_payloadPress, forKey: .payloadPress)
        try c.encode(_entityCategory, forKey: .entityCategory)
        try c.encode(_icon, forKey: .icon)
        try c.encode(availability, forKey: .availability)
        try c.encode(device, forKey: .device)
        try c.encode(origin, forKey: .origin)
    }
}
