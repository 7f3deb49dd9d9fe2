/// The inputs' settings (`input_*`, gpstrackd.conf(5)): none configured by default.
public struct InputConfig: Sendable, Equatable {
    /// Where an input is read.
    public enum Source: Sendable, Equatable {
        /// `file:PATH`: a file holding 0 or 1 (a sysfs GPIO `value`, or one a script writes).
        case file(path: String)
        /// `power_supply:NAME`: `/sys/class/power_supply/NAME` (`online`, `status`, `capacity`,
        /// `voltage_now`).
        case powerSupply(name: String)
        /// `iio:DEVICE:CHANNEL:VOLTS`: an IIO voltage channel (`in_voltageN_raw` × scale, in
        /// millivolts as the IIO ABI has it), on above VOLTS with a hysteresis.
        case iio(device: String, channel: Int, volts: Double)

        /// Reads `file:PATH`, `power_supply:NAME` or `iio:DEVICE:CHANNEL:VOLTS`; an error says
        /// what was expected.
        public static func parse(_ text: String) -> Result<Source, ConfigProblem> {
            let expected = "expected file:PATH, power_supply:NAME or iio:DEVICE:CHANNEL:VOLTS, got '\(text)'"
            guard let colon = text.firstIndex(of: ":") else { return .failure(ConfigProblem(expected)) }
            let rest = String(text[text.index(after: colon)...])
            switch text[..<colon] {
            case "file":
                guard rest.hasPrefix("/"), !rest.contains("\0") else {
                    return .failure(ConfigProblem("file: needs an absolute path, got '\(text)'"))
                }
                return .success(.file(path: rest))
            case "power_supply":
                guard Self.isName(rest) else {
                    return .failure(
                        ConfigProblem("power_supply: needs a supply's name (letters, digits, -_.), got '\(text)'"))
                }
                return .success(.powerSupply(name: rest))
            case "iio":
                // The device's own name has a colon (`iio:device0`): CHANNEL and VOLTS are the last two.
                let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
                let device = parts.dropLast(2).joined(separator: ":")
                guard parts.count >= 3,
                    device.split(separator: ":", omittingEmptySubsequences: false).allSatisfy({
                        Self.isName(String($0))
                    }),
                    let channel = Int(parts[parts.count - 2]), (0...255).contains(channel),
                    let volts = Double(parts[parts.count - 1]), volts.isFinite, volts > 0, volts <= 1000
                else {
                    return .failure(
                        ConfigProblem(
                            "iio: needs DEVICE:CHANNEL:VOLTS (iio:iio:device0:1:9.5; a channel 0-255, volts above 0 up to 1000), got '\(text)'"
                        ))
                }
                return .success(.iio(device: device, channel: channel, volts: volts))
            default:
                return .failure(ConfigProblem(expected))
            }
        }

        /// The source as the key's value has it.
        public var text: String {
            switch self {
            case .file(let path): "file:\(path)"
            case .powerSupply(let name): "power_supply:\(name)"
            case .iio(let device, let channel, let volts): "iio:\(device):\(channel):\(volts)"
            }
        }

        /// A sysfs entry's name: no slash, no `..`, at most 64 of [A-Za-z0-9_.-].
        static func isName(_ s: String) -> Bool {
            !s.isEmpty && s.utf8.count <= 64 && s != "." && s != ".."
                && s.utf8.allSatisfy { b in
                    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D
                        || b == 0x5F || b == 0x2E
                }
        }
    }

    /// Each configured input's source.
    public var sources: [InputName: Source] = [:]
    /// The inputs whose line is active low (0 means on).
    public var activeLow: Set<InputName> = []
    /// Milliseconds a new level must hold before it counts (0 to 60,000; default 50).
    public var debounceMs: [InputName: Int] = [:]
    public static let defaultDebounceMs = 50
    /// Seconds the ignition must stay off before it counts as off (a crank's dip is not).
    public var ignitionOffDelayS = 0.0
    /// The folder `/sys/...` paths are read under (tests give a tree of their own).
    public var root = "/"

    public init() {}

    /// Whether any input is configured.
    public var any: Bool { !sources.isEmpty }

    /// The debounce of `name` in seconds.
    public func debounceS(_ name: InputName) -> Double {
        Double(debounceMs[name] ?? Self.defaultDebounceMs) / 1000
    }
}

/// A configuration value's problem, as a setter returns it.
public struct ConfigProblem: Error, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
