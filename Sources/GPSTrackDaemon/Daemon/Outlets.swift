import GPSTrackCore
import GPSTrackProtocol

/// The outlets the tracker hands its steps to after its built-in sinks (store, journal,
/// pedometer, MQTT), in order: the day's distance, the anchor watch's and the inputs' stores, and each HTTP
/// uplink the configuration asks for. Made here for the daemon and the in-process harness
/// alike, so that an in-process test runs the same outlets, an uplink against an in-memory
/// transport.
public struct Outlets {
    /// The sinks, in order, for `TrackerService(outlets:)`.
    public let sinks: [any TrackerSink]
    let uplinks: [any UplinkSink]

    /// `transport`, given an uplink's name, replaces libcurl; a configuration error names the
    /// key's place.
    public static func make(
        _ config: Configuration, store: Store?, file: StateDatabase, journal: Journal, configFile: String?,
        transport: (@Sendable (UplinkName) -> any HTTPTransport)? = nil
    ) throws(ConfigError) -> Outlets {
        let uplinks = try Uplinks.make(
            config, file: file, journal: journal, configFile: configFile, transport: transport)
        let anchor: [any TrackerSink] = store.map { [AnchorSink(store: $0)] } ?? []
        let inputs: [any TrackerSink] = config.inputs.any ? store.map { [InputsSink(store: $0)] } ?? [] : []
        return Outlets(sinks: [DayDistance()] + anchor + inputs + uplinks, uplinks: uplinks)
    }

    /// Each uplink's sender: a service, stopped after the tracker's last commit.
    var senders: [UplinkSender] { uplinks.map(\.sender) }

    /// The channels of commands the uplinks' servers send (OwnTracks HTTP's replies).
    var commandChannels: [OwnTracksHTTPCommands] { uplinks.compactMap { ($0 as? OwnTracksHTTPUplink)?.commands } }

    /// Stops every uplink's sender (after the request in flight).
    public func stop() async { await stopAction() }

    /// `stop()`, to keep where the outlets themselves (the actor's) cannot go.
    public var stopAction: @Sendable () async -> Void {
        let senders = senders
        return { for sender in senders { await sender.stop() } }
    }
}
