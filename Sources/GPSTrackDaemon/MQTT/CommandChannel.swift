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
    func enqueue(kind: String, topic: String, payload: String, qos: Int32)
}

extension MQTTPublisher: CommandChannel {
    var commandSource: String { "mqtt:\(baseTopic)/cmd" }
    var ignoredEvent: EventName { .mqttCommandIgnored }
}

/// An uplink that can send a location now (`reportLocation` runs on every uplink that can).
protocol LocationReporter: AnyObject {
    var name: String { get }
    /// Queues OwnTracks' `location` with `t: "r"` for `fix`.
    func reportLocation(_ fix: Fix, time: Double, session: TrackingSession)
}

extension TrackerService {
    /// Commands from a channel, run in order.
    func commands(_ payloads: [[UInt8]], from channel: any CommandChannel) {
        for payload in payloads { command(payload, from: channel) }
    }

    /// `reportLocation`: the last accepted fix as a `location` with `t: "r"` on MQTT and on each
    /// uplink that sends locations of OwnTracks' kind; what was done, in words.
    func reportLocationEverywhere(_ fix: Fix, time t: Double) -> String {
        var on: [String] = []
        if let mqtt, let ownTracks {
            mqtt.enqueue(
                kind: "location", topic: mqtt.baseTopic,
                payload: ownTracks.locationMessage(fix, time: t, session: session, trigger: "r"), qos: 1)
            on.append("mqtt")
        }
        for case let uplink as any LocationReporter in sinks {
            uplink.reportLocation(fix, time: t, session: session)
            on.append(uplink.name)
        }
        return on.isEmpty ? "no uplink sends locations" : "location published on \(on.joined(separator: ", "))"
    }
}
