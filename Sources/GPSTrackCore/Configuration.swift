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
