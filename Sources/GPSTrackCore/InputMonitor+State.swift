/// What of the inputs a restart must find again (gpstrackd(8), INPUTS, Kept across a restart):
/// the engine's total and its last periods (a trip's engine seconds), whether `battery_low` was
/// said, and the panic button's and the power loss's latched alarms. The levels themselves are
/// read again at the start. Text lines (`key=v1,v2`) like the anchor watch's.
extension InputMonitor {
    /// The greatest engine total read back: a hundred years of seconds.
    public static let maxEngineS = 3.2e9
    /// Fix times read back: the years 1970 to 9999 (what `Timestamp` writes from 0 on).
    static let times = 0.0...253_402_300_799.0

    /// The state with a running ignition counted up to `now` (its period closed there): what a
    /// kill finds, losing at most the time since the last write.
    public func encodedState(now: Double?) -> String {
        var total = engineTotalS
        var kept = periods
        if ignition == true, let since = ignitionSince, let now, now >= since {
            total += now - since
            kept.append(since...now)
            if kept.count > Self.keptPeriods { kept.removeFirst(kept.count - Self.keptPeriods) }
        }
        var lines = [
            "inputs_engine_total=\(total)",
            "inputs_periods=" + kept.map { "\($0.lowerBound),\($0.upperBound)" }.joined(separator: ","),
            "inputs_battery_low=\(batteryLow ? 1 : 0)",
        ]
        if let sos { lines.append("inputs_sos=" + sos.encoded) }
        if let powerAlarm { lines.append("inputs_power_alarm=" + powerAlarm.encoded) }
        return lines.joined(separator: "\n")
    }

    /// The part whose change is written at once (the running ignition's time is written as it
    /// runs, see `InputsSink`).
    public var stateKey: String { encodedState(now: nil) }

    /// Reads back `encodedState`; nil when any line is missing, unknown or out of bounds (a
    /// damaged row is not loaded: the monitor then starts afresh).
    public init?(state text: String, config: Config) {
        self.init(config: config)
        var seen = Set<String>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let eq = line.firstIndex(of: "=") else { return nil }
            let key = String(line[..<eq])
            let raw = line[line.index(after: eq)...]
            let values =
                raw.isEmpty ? [] : raw.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard seen.insert(key).inserted, values.allSatisfy({ $0?.isFinite == true }) else { return nil }
            let v = values.map { $0! }
            switch key {
            case "inputs_engine_total":
                guard v.count == 1, (0...Self.maxEngineS).contains(v[0]) else { return nil }
                engineTotalS = v[0]
            case "inputs_periods":
                guard v.count % 2 == 0, v.count / 2 <= Self.keptPeriods else { return nil }
                for i in stride(from: 0, to: v.count, by: 2) {
                    guard Self.times.contains(v[i]), Self.times.contains(v[i + 1]), v[i] <= v[i + 1] else { return nil }
                    periods.append(v[i]...v[i + 1])
                }
            case "inputs_battery_low":
                guard v.count == 1, v[0] == 0 || v[0] == 1 else { return nil }
                batteryLow = v[0] == 1
            case "inputs_sos", "inputs_power_alarm":
                guard v.count == 4, Self.times.contains(v[0]), Self.times.contains(v[1]), v[3] == 0 || v[3] == 1,
                    let alarm = LatchedAlarm(fields: v[...])
                else { return nil }
                if key == "inputs_sos" { sos = alarm } else { powerAlarm = alarm }
            default:
                return nil
            }
        }
        guard seen.isSuperset(of: ["inputs_engine_total", "inputs_periods", "inputs_battery_low"]) else { return nil }
    }
}
