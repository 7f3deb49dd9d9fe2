import GPSTrackCore
import GPSTrackProtocol

/// The HTTP uplinks the configuration asks for.
enum Uplinks {
    /// Makes each configured uplink (loading libcurl); a configuration error names the key's place.
    /// `transport`, given an uplink's name, replaces libcurl (the in-process tests' servers).
    static func make(
        _ config: Configuration, file: StateDatabase, journal: Journal, configFile: String?,
        transport: (@Sendable (UplinkName) -> any HTTPTransport)? = nil
    ) throws(ConfigError) -> [any UplinkSink] {
        var made: [any UplinkSink] = []
        if config.traccar.url != nil {
            made.append(
                try TraccarUplink(
                    configuration: config, file: file, journal: journal,
                    configFile: configFile ?? "configuration", transport: transport?(.traccar)))
        }
        if config.owntracksHTTP.url != nil {
            made.append(
                try OwnTracksHTTPUplink(
                    configuration: config, file: file, journal: journal,
                    configFile: configFile ?? "configuration", transport: transport?(.owntracksHTTP)))
        }
        if config.webhook.url != nil {
            made.append(
                try WebhookUplink(
                    configuration: config, file: file, journal: journal,
                    configFile: configFile ?? "configuration", transport: transport?(.webhook)))
        }
        return made
    }
}
