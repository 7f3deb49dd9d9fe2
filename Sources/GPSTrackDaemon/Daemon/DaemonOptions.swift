import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The live daemon's command line, parsed with its configuration file into one immutable value.
public struct DaemonOptions: Sendable {
    public static let defaultConfigPath = "/etc/gpstrackd/gpstrackd.conf"
    public static let usage = """
        usage: gpstrackd [--config FILE] [--gpsd HOST:PORT] [--fences FILE] [--socket PATH]
                         [--state-dir DIR] [--distance-filter M] [--log auto|journal|stderr]
               gpstrackd replay [OPTIONS] LOG     replay a gpsd JSON log ('gpstrackd replay --help')
               gpstrackd replay-accel FILE        count steps in accelerometer samples (CSV t,x,y,z)
               gpstrackd --help | --version
          The configuration file defaults to \(defaultConfigPath) (used when it exists);
          flags override it. Exit codes: 64 usage, 73 control socket, 78 configuration or fences.
        """

    /// Why the options could not be made.
    public enum Failure: Error {
        case help
        case version
        case usage(String)
        case config(ConfigError)
        /// A fences file refused; `origin` is where it was named ("FILE:LINE: ", or "").
        case fences(FenceError, origin: String)
    }

    public let configuration: Configuration
    public let fences: FenceIndex?
    public let logTarget: Journal.Target
    /// The configuration file read, if any.
    public let configPath: String?

    public init(arguments: [String]) throws(Failure) {
        let parser = ArgumentParser(
            valued: ["config", "gpsd", "fences", "socket", "state-dir", "distance-filter", "log"],
            boolean: ["help", "version"])
        let parsed: ArgumentParser.Result
        do { parsed = try parser.parse(arguments) } catch { throw .usage(error.message) }
        if parsed.flags.contains("help") { throw .help }
        if parsed.flags.contains("version") { throw .version }
        guard parsed.positionals.isEmpty else { throw .usage("unexpected argument '\(parsed.positionals[0])'") }

        var config = Configuration()
        let explicit = parsed.options["config"]
        let path = explicit ?? (access(Self.defaultConfigPath, F_OK) == 0 ? Self.defaultConfigPath : nil)
        configPath = path
        if let path {
            do { config = try FileIO.loadConfiguration(path) } catch { throw .config(error) }
        }
        if let gpsd = parsed.options["gpsd"] {
            guard let (host, port) = ConfigParser.parseHostPort(gpsd) else {
                throw .usage("--gpsd: expected HOST:PORT, got '\(gpsd)'")
            }
            config.gpsdHost = host
            config.gpsdPort = port
        }
        for (flag, key) in [("fences", "fences"), ("socket", "socket"), ("state-dir", "state_dir"), ("gpsd", "gpsd")]
        where parsed.options[flag] != nil {
            config.origins[key] = "--\(flag)"
        }
        if let v = parsed.options["fences"] { config.fencesPath = v }
        if let v = parsed.options["socket"] { config.socketPath = v }
        if let v = parsed.options["state-dir"] { config.stateDirectory = v }
        if let v = parsed.options["distance-filter"] {
            do {
                try ConfigParser.apply(key: "distance_filter_m", value: v, to: &config, source: "--distance-filter")
            } catch {
                throw .usage("--distance-filter: \(error.message)")
            }
        }
        let log = parsed.options["log"] ?? "auto"
        guard let target = Journal.Target(rawValue: log) else {
            throw .usage("--log: expected auto, journal or stderr, got '\(log)'")
        }
        logTarget = target
        if let path = config.fencesPath {
            do { fences = try FenceLoader.load(path) } catch {
                throw .fences(error, origin: config.origin(of: "fences"))
            }
        } else {
            fences = nil
        }
        configuration = config
    }
}
