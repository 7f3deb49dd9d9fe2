/// The inputs' keys (gpstrackd.conf(5), INPUTS), each bounded where it is parsed.
extension ConfigParser {
    static let inputTable: [(String, Setter)] =
        InputName.allCases.flatMap { name -> [(String, Setter)] in
            [
                (
                    "input_\(name.rawValue)",
                    { @Sendable c, v in
                        switch InputConfig.Source.parse(v) {
                        case .failure(let p): return p.message
                        case .success(let source):
                            c.inputs.sources[name] = source
                            return nil
                        }
                    }
                ),
                (
                    "input_\(name.rawValue)_active_low",
                    { @Sendable c, v in
                        guard
                            let b = ["yes": true, "true": true, "1": true, "no": false, "false": false, "0": false][v]
                        else { return "expected yes or no, got '\(v)'" }
                        if b { c.inputs.activeLow.insert(name) } else { c.inputs.activeLow.remove(name) }
                        return nil
                    }
                ),
                (
                    "input_\(name.rawValue)_debounce_ms",
                    { @Sendable c, v in
                        guard let ms = Int(v), (0...60_000).contains(ms) else {
                            return "expected a whole number of milliseconds from 0 to 60000, got '\(v)'"
                        }
                        c.inputs.debounceMs[name] = ms
                        return nil
                    }
                ),
            ]
        } + [
            (
                "input_ignition_off_delay_s",
                { @Sendable c, v in
                    guard let s = Double(v), s.isFinite, (0...3_600).contains(s) else {
                        return "expected seconds from 0 to 3600, got '\(v)'"
                    }
                    c.inputs.ignitionOffDelayS = s
                    return nil
                }
            ),
            (
                "input_root",
                { @Sendable c, v in
                    guard v.hasPrefix("/"), !v.contains("\0") else { return "expected an absolute path, got '\(v)'" }
                    c.inputs.root = v
                    return nil
                }
            ),
            (
                "trip_source",
                { @Sendable c, v in
                    guard let source = TrackerConfig.TripSource(rawValue: v) else {
                        return "expected gps, ignition or both, got '\(v)'"
                    }
                    c.tracker.tripSource = source
                    return nil
                }
            ),
            (
                "guard_arm_on_ignition_off",
                { @Sendable c, v in
                    guard let b = ["yes": true, "true": true, "1": true, "no": false, "false": false, "0": false][v]
                    else { return "expected yes or no, got '\(v)'" }
                    c.tracker.guardArmOnIgnitionOff = b
                    return nil
                }
            ),
            (
                "battery_low_pct",
                { @Sendable c, v in
                    guard let pct = Int(v), (0...95).contains(pct) else {
                        return "expected a whole percentage from 0 (never) to 95, got '\(v)'"
                    }
                    c.tracker.inputs.batteryLowPct = pct
                    return nil
                }
            ),
        ]
}
