import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The inputs' journal entries: the panic button at `crit` (someone needs help), the power
/// lost and the battery low at `warning`, the rest at `notice`.
extension EventLog {
    static func entry(for i: InputEvent, fields base: [(JournalField, String)]) -> LogEntry {
        var fields = base + [(.time, Timestamp.iso8601(i.time))] + (i.at.map(position) ?? [])
        let battery = { (pct: Int?, v: Double?) -> String in
            [pct.map { "battery \($0) %" }, v.map { "\(number($0)) V" }].compactMap { $0 }.joined(separator: ", ")
        }
        let figures = { (pct: Int?, v: Double?) -> [(JournalField, String)] in
            (pct.map { [(JournalField.batteryPct, String($0))] } ?? []) + (v.map { [(.volts, number($0))] } ?? [])
        }
        switch i {
        case .ignitionOn:
            fields.append((.input, InputName.ignition.rawValue))
            return LogEntry(event: .ignitionOn, priority: .notice, message: "Ignition on", fields: fields)
        case .ignitionOff(_, _, let engine, let total):
            fields += [
                (.input, InputName.ignition.rawValue), (.engineS, number(engine)), (.engineTotalS, number(total)),
            ]
            return LogEntry(
                event: .ignitionOff, priority: .notice,
                message: "Ignition off after \(whole(engine)) s of engine time", fields: fields)
        case .powerLost(_, _, let pct, let v, let n):
            fields += [(.input, InputName.power.rawValue)] + figures(pct, v) + (n.map { [(.repeat, String($0))] } ?? [])
            let on = battery(pct, v)
            // While the guard was armed it is an alarm (crit), said again until `guard ack`.
            let head = n == nil ? "External power lost" : "GUARD: external power lost"
            let again = n.map { ($0 > 0 ? " (said again, \($0))" : "") + "; gpstrackctl guard ack" } ?? ""
            return LogEntry(
                event: .powerLost, priority: n == nil ? .warning : .crit,
                message: head + (on.isEmpty ? "" : "; on battery: \(on)") + again, fields: fields)
        case .powerRestored(_, _, let pct, let v):
            fields += [(.input, InputName.power.rawValue)] + figures(pct, v)
            let on = battery(pct, v)
            return LogEntry(
                event: .powerRestored, priority: .notice,
                message: "External power restored" + (on.isEmpty ? "" : " (\(on))"), fields: fields)
        case .batteryLow(_, _, let pct):
            fields += [(.input, InputName.power.rawValue), (.batteryPct, String(pct))]
            return LogEntry(event: .batteryLow, priority: .warning, message: "Battery low: \(pct) %", fields: fields)
        case .sos(_, _, let n):
            fields += [(.input, InputName.sos.rawValue), (.repeat, String(n))]
            let again = n > 0 ? " (said again, \(n))" : ""
            return LogEntry(
                event: .sos, priority: .crit, message: "SOS: the panic button was pressed\(again); gpstrackctl sos ack",
                fields: fields)
        case .sosAck:
            fields.append((.input, InputName.sos.rawValue))
            return LogEntry(event: .sosAck, priority: .notice, message: "SOS acknowledged", fields: fields)
        }
    }
}

extension EventJSON {
    /// An input event as its line.
    static func body(_ i: InputEvent) -> EventLine.Body {
        let time = Timestamp.iso8601(i.time)
        let (lat, lon) = (i.at?.latitude, i.at?.longitude)
        switch i {
        case .ignitionOn:
            return .input(.init(kind: .ignitionOn, time: time, lat: lat, lon: lon))
        case .ignitionOff(_, _, let engine, let total):
            return .input(
                .init(
                    kind: .ignitionOff, time: time, lat: lat, lon: lon, engineS: engine.rounded(decimals: 1),
                    engineTotalS: total.rounded(decimals: 1)))
        case .powerLost(_, _, let pct, let v, let n):
            return .input(
                .init(
                    kind: .powerLost, time: time, lat: lat, lon: lon, batteryPct: pct, volts: v?.rounded(decimals: 2),
                    repeat: n))
        case .powerRestored(_, _, let pct, let v):
            return .input(
                .init(
                    kind: .powerRestored, time: time, lat: lat, lon: lon, batteryPct: pct,
                    volts: v?.rounded(decimals: 2)))
        case .batteryLow(_, _, let pct):
            return .input(.init(kind: .batteryLow, time: time, lat: lat, lon: lon, batteryPct: pct))
        case .sos(_, _, let n):
            return .input(.init(kind: .sos, time: time, lat: lat, lon: lon, repeat: n))
        case .sosAck:
            return .input(.init(kind: .sosAck, time: time))
        }
    }
}
