import GPSTrackVocabulary

/// The daemon's whole configuration, parsed once into an immutable value.
public struct Configuration: Sendable, Equatable {
    /// gpsd's address as `HOST:PORT`.
    public var gpsdHost = "localhost"
    public var gpsdPort = 2947
    /// The GeoJSON fences file, if any.
    public var fencesPath: String?
    /// The one receiver to follow (gpsd's device path); nil: the best of those reporting.
    public var device: String?
    /// The control socket's path: gpstrackctl's default too (`ControlRequest.defaultSocketPath`,
    /// in the protocol module, which the core does not import; a test keeps the two equal).
    public var socketPath = "/run/gpstrackd/gpstrackd.sock"
    /// Where the state database lives.
    public var stateDirectory = "/var/lib/gpstrackd"
    /// With no report from gpsd for this long, the connection is dropped and made anew. Seconds.
    public var noDataTimeoutS = 10.0
    /// Where the daemon writes its metrics (Prometheus text, for node_exporter's textfile
    /// collector), replaced whole every `metricsIntervalS`; none when nil.
    public var metricsFile: String?
    public var metricsIntervalS = 15.0
    /// The system clock may differ from GPS time by this much before a `clock_offset` warning. Seconds.
    public var clockOffsetWarnS = 5.0
    /// Track points older than this many days are pruned.
    public var retentionDays = 90.0
    /// MQTT (OwnTracks) output; none when `mqttHost` is nil.
    public var mqtt = MQTTConfig()
    /// The Traccar (OsmAnd) uplink; none when its URL is nil.
    public var traccar = TraccarConfig()
    /// The webhook uplink; none when its URL is nil.
    public var webhook = WebhookConfig()
    /// OwnTracks over HTTP; none when its URL is nil.
    public var owntracksHTTP = OwnTracksHTTPConfig()
    /// An uplink sends no fix dated further than this from the system clock. Seconds.
    public var uplinkMaxClockOffsetS = 86_400.0
    /// The group that owns the control socket (mode 0660): its members may read.
    public var socketGroup = "gpstrack"
    /// Members of this group (besides root and the daemon's own user) may start, stop, reset,
    /// reload and the rest of `CommandRights`' administrators' commands; none unless named.
    public var adminGroup: String?
    /// Whether a password, token or URL userinfo may go in plaintext (a broker without TLS,
    /// `http://`) to a host that is not loopback; without it such a configuration is refused.
    public var allowPlaintextCredentials = false
    /// Control clients served at once; more are told so and closed.
    public var maxClients = 256
    /// A control client silent this long is closed (watchers excepted). Seconds.
    public var idleTimeoutS = 300.0
    /// A `watch` client whose unread events exceed this many bytes is dropped.
    public var watchQueueBytes = 1 << 20
    /// The pedometer: `auto` finds an IIO step counter or accelerometer, `off` does not look.
    public var pedometer = PedometerMode.auto
    /// Where IIO devices appear in sysfs, and where their buffer devices are.
    public var iioRoot = "/sys/bus/iio/devices"
    public var iioDevRoot = "/dev"
    /// The box's inputs (ignition, external power and battery, the panic button).
    public var inputs = InputConfig()
    /// The map page's tiles (`map_tiles_url`); none by default: a page opened from a file sends
    /// no Referer, which OpenStreetMap's tile policy asks of a web page (gpstrackd.conf(5)).
    public var mapTiles: MapTiles?
    /// Home Assistant's MQTT discovery (`ha_discovery`), off by default.
    public var ha = HADiscoveryConfig()
    /// `map_tiles_attribution`, kept apart so that the two keys may come in either order.
    public var mapTilesAttribution = MapTiles.osmAttribution
    /// The walking stride used until one is learned from GPS, metres.
    public var strideM = 0.7
    /// The tracking core's tunables.
    public var tracker = TrackerConfig()
    /// Where each key was set (`file:line`, or the flag), so that a problem found later with a
    /// value (a fences file that cannot be read) names the place it came from.
    public var origins: [String: String] = [:]

    /// "`place`: " for the key's value, or "" when it has the default.
    public func origin(of key: String) -> String {
        origins[key].map { "\($0): " } ?? ""
    }

    public init() {}
}

/// Whether to look for a pedometer.
public enum PedometerMode: String, Sendable, Equatable {
    case auto, off
}

/// An error in a configuration file or value, naming `file:line`.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// OwnTracks-over-MQTT settings (`mqtt_*` keys).
public struct MQTTConfig: Sendable, Equatable {
    public var host: String?
    public var port = 1883
    /// Base topic; default `owntracks/<user>/<device>` (user `gpstrackd` unless `user` is set,
    /// device the host name).
    public var topic: String?
    public var clientID: String?
    public var user: String?
    /// A file holding the password (never the password itself).
    public var passwordFile: String?
    /// The shared secret for OwnTracks' payload encryption (`mqtt_secret_file`): with it every
    /// message is encrypted and a command must be.
    public var secretFile: String?
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    /// A location is published at most this often (fix time)...
    public var minIntervalS = 30.0
    /// ...and only after moving this far, or after `heartbeatS` regardless.
    public var minDistanceM = 50.0
    public var heartbeatS = 900.0
    /// The outbox holds at most this many messages; the oldest locations go first.
    public var outboxMax = 10_000
    /// Whether commands from `<base>/cmd` run (`mqtt_commands`); off, only `reportSteps` does.
    public var commands = false
    /// An encrypted command's `tst` may differ from the fix clock by at most this much, and its
    /// nonce is remembered this long (`command_max_age_s`). Seconds.
    public var commandMaxAgeS = 300.0
    /// The actions a broker command may run (`mqtt_command_allow`).
    public var commandAllow = MQTTConfig.readOnlyActions

    /// Every action `mqtt_command_allow` may name: OwnTracks' and gpstrackd's own.
    public static let commandActions = CommandRights.allowListActions
    /// The default allow list: the actions that only report.
    public static let readOnlyActions = CommandRights.defaultAllowed

    public init() {}
}
