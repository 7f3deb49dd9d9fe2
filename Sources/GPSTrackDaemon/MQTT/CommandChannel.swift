import GPSTrackCore
import GPSTrackProtocol

/// Where a command came from and where its answers go: the broker's `<base>/cmd` (answers on
/// the broker) or the OwnTracks HTTP server's reply (answers POSTed to it). Both take the same
/// parser, allow list (`mqtt_commands`, `mqtt_command_allow`) and rate limits, each channel
/// with limits of its own.
protocol CommandChannel: AnyObject, Sendable {
    /// The command keys (`commands`, `commandAllow`).
    var config: MQTTConfig { get }
    /// The base topic the answers' topics are made from (the HTTP channel has none: "").
    var baseTopic: String { get }
    var commandLimits: CommandLimiter { get }
    /// `GPSTRACK_SOURCE`: `mqtt:<base>/cmd` or `owntracks_http`.
    var commandSource: String { get }
    /// The entry for a command ignored with `mqtt_commands = off`.
    var ignoredEvent: EventName { get }
    /// Sends an answer (a `cmdresult`, `status`, `configuration`, `waypoints`, `location`).
    func enqueue(kind: OutboxKind, topic: String, payload: String, qos: Int32)
}

extension MQTTPublisher: CommandChannel {
    var commandSource: String { "mqtt:\(baseTopic)/cmd" }
    var ignoredEvent: EventName { .mqttCommandIgnored }
}

/// An uplink that can send a location now (`reportLocation` runs on every uplink that can).
protocol LocationReporter: AnyObject {
    var name: String { get }
    /// Queues OwnTracks' `location` with `t: "r"` for `fix`, inside the fences named (nil: no
    /// fences in force).
    func reportLocation(_ fix: Fix, time: Double, inside: [String]?)
}
