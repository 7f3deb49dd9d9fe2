/// What an outbox row tells of: the one list of kinds every uplink queues, and the one rule of
/// what may go to make room (a queue's limit, its age limit, a full disk).
public enum OutboxKind: String, Sendable, CaseIterable {
    /// A position report (OwnTracks `location`, an OsmAnd position).
    case location
    /// An OwnTracks `transition`: a fence entered or left, the guard's, the anchor's.
    case transition
    /// A trip's start or end (Traccar).
    case trip
    /// An alarm: a tow, an overspeed, the anchor dragging or blind (every outlet).
    case alarm
    /// Any other event (the webhook's).
    case event
    /// The circular fences as OwnTracks waypoints.
    case waypoints
    /// The pedometer's figures (OwnTracks `steps`).
    case steps
    /// Answers to the broker's commands: `status`, `dump`, a command's result.
    case status, configuration, cmdresult
    /// Home Assistant's discovery: an entity's config (empty: the entity removed), retained.
    case haConfig = "ha_config"
    /// Home Assistant's state topic, retained: the newest says all, so older ones may go.
    case haState = "ha_state"
    /// Home Assistant's tracker's zone (a fence's name or `not_home`), retained; said on change.
    case haZone = "ha_zone"

    /// Whether a row of this kind may be dropped to make room: positions only (the next one
    /// says where the box is); what a backlog is for never goes.
    public var thinnable: Bool {
        switch self {
        case .location, .haState: true
        case .transition, .trip, .alarm, .event, .waypoints, .steps, .status, .configuration, .cmdresult, .haConfig,
            .haZone:
            false
        }
    }

    /// Whether the broker keeps the message for whoever subscribes later (MQTT's retain):
    /// Home Assistant's discovery and state, which HA reads again when it starts.
    public var retained: Bool {
        switch self {
        case .haConfig, .haState, .haZone: true
        case .location, .transition, .trip, .alarm, .event, .waypoints, .steps, .status, .configuration, .cmdresult:
            false
        }
    }

    /// The SQL condition a thinnable row meets.
    static let thinnableSQL =
        "kind IN (" + allCases.filter(\.thinnable).map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
}
