/// The daemon's whole configuration, parsed once into an immutable value.
public struct Configuration: Sendable, Equatable {
    /// gpsd's address as `HOST:PORT`.
    public var gpsdHost = "localhost"
    public var gpsdPort = 2947
    /// The GeoJSON fences file, if any.
    public var fencesPath: String?
    /// The control socket's path.
    public var socketPath = "/run/gpstrackd/gpstrackd.sock"
    /// Where the state database lives.
    public var stateDirectory = "/var/lib/gpstrackd"
    /// With no report from gpsd for this long, the connection is dropped and made anew. Seconds.
    public var noDataTimeoutS = 10.0
    /// Track points older than this many days are pruned.
    public var retentionDays = 90.0
    /// The group that owns the control socket (mode 0660): its members may read.
    public var socketGroup = "gpstrack"
    /// Members of this group (besides root and the daemon's own user) may start, stop, reset
    /// and reload.
    public var adminGroup = "gpstrack"
    /// Control clients served at once; more are told so and closed.
    public var maxClients = 256
    /// A control client silent this long is closed (watchers excepted). Seconds.
    public var idleTimeoutS = 300.0
    /// A `watch` client whose unread events exceed this many bytes is dropped.
    public var watchQueueBytes = 1 << 20
    /// The tracking core's tunables.
    public var tracker = TrackerConfig()

    public init() {}
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
