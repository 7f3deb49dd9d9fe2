import GPSTrackCore

/// One read of an input's source in sysfs, strictly: a file's text must be exactly what the
/// kernel's ABI says it holds, every number bounded; anything else is a problem that names
/// the file and what it held.
enum InputRead {
    /// What one read found.
    struct Sample: Equatable {
        /// The line's level after `active_low` (the supply's `online`; an IIO voltage above
        /// its threshold).
        var level: Bool
        var batteryPct: Int?
        var volts: Double?
        /// A power supply without `capacity` (said once: the battery is not watched).
        var noCapacity = false
    }

    /// `path` under `root` (`/` reads it as it is).
    static func under(_ root: String, _ path: String) -> String {
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        return base + path
    }

    /// Reads `source` once. `was` is the level last read, for an IIO threshold's hysteresis.
    static func read(_ source: InputConfig.Source, root: String, activeLow: Bool, was: Bool?)
        -> Result<Sample, InputProblem>
    {
        switch source {
        case .file(let path):
            let full = under(root, path)
            return bit(full).map { Sample(level: $0 != activeLow) }
        case .powerSupply(let name):
            let dir = under(root, "/sys/class/power_supply/\(name)")
            var online: Bool
            switch bit(dir + "/online") {
            case .success(let b): online = b
            case .failure(let onlineProblem):
                // A battery's supply has no `online`: its `status` says whether it charges.
                guard let status = IIODevice.readText(dir + "/status") else { return .failure(onlineProblem) }
                switch status {
                case "Charging", "Full", "Not charging": online = true
                case "Discharging": online = false
                default:
                    return .failure(
                        InputProblem(path: dir + "/status", why: "holds '\(status.prefix(40))', not a status"))
                }
            }
            var sample = Sample(level: online != activeLow)
            if IIODevice.exists(dir + "/capacity") {
                guard let text = IIODevice.readText(dir + "/capacity"), let pct = Int(text), (0...100).contains(pct)
                else {
                    return .failure(InputProblem(path: dir + "/capacity", why: "is not a percentage from 0 to 100"))
                }
                sample.batteryPct = pct
            } else {
                sample.noCapacity = true
            }
            if let text = IIODevice.readText(dir + "/voltage_now") {
                // Microvolts; a supply above 1 kV is no reading.
                guard let uv = Int(text), (0...1_000_000_000).contains(uv) else {
                    return .failure(
                        InputProblem(path: dir + "/voltage_now", why: "holds '\(text.prefix(40))', not microvolts"))
                }
                sample.volts = Double(uv) / 1_000_000
            }
            return .success(sample)
        case .iio(let device, let channel, let threshold):
            let dir = under(root, "/sys/bus/iio/devices/\(device)")
            let rawPath = dir + "/in_voltage\(channel)_raw"
            guard let rawText = IIODevice.readText(rawPath) else {
                return .failure(InputProblem(path: rawPath, why: "cannot be read"))
            }
            guard let raw = Int(rawText), abs(raw) <= 1 << 32 else {
                return .failure(InputProblem(path: rawPath, why: "holds '\(rawText.prefix(40))', not a raw reading"))
            }
            // The scale is per channel or shared; millivolts per unit, as the IIO ABI has it.
            let scalePath = [dir + "/in_voltage\(channel)_scale", dir + "/in_voltage_scale"].first(
                where: IIODevice.exists)
            var scale = 1.0
            if let scalePath {
                guard let text = IIODevice.readText(scalePath), let s = Double(text), s.isFinite, s > 0, s < 1e6 else {
                    return .failure(InputProblem(path: scalePath, why: "is not a scale"))
                }
                scale = s
            }
            let volts = Double(raw) * scale / 1000
            // On above the threshold, off again only below it less a hysteresis (5 %, at least
            // 0.1 V), so a supply sagging at the threshold does not flap.
            let hysteresis = max(threshold * 0.05, 0.1)
            let above = was == true ? volts > threshold - hysteresis : volts > threshold
            return .success(Sample(level: above != activeLow, volts: volts))
        }
    }

    /// A file holding exactly 0 or 1 (a newline after it).
    static func bit(_ path: String) -> Result<Bool, InputProblem> {
        guard IIODevice.exists(path) else { return .failure(InputProblem(path: path, why: "does not exist")) }
        guard let text = IIODevice.readText(path) else {
            return .failure(InputProblem(path: path, why: "cannot be read or is empty"))
        }
        switch text {
        case "0": return .success(false)
        case "1": return .success(true)
        default: return .failure(InputProblem(path: path, why: "holds '\(text.prefix(40))', not 0 or 1"))
        }
    }
}

/// Why an input could not be read: the file and what was wrong with it.
struct InputProblem: Error, Equatable {
    var path: String
    var why: String
    var text: String { "\(path) \(why)" }
}
