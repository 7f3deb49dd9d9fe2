import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// An input's reading in a replay's log (gpstrackd(8), INPUTS): one line of its own among
/// gpsd's, `{"class":"INPUT","input":"ignition","on":true,"time":"2026-03-14T08:00:00Z"}`;
/// the power's may add `battery_pct` (0-100) and `volts`. It goes to the session at its
/// `time` where it stands in the log, as the live daemon took it at that time of the fix clock.
enum ReplayInput {
    /// The class that marks such a line.
    static let className = "INPUT"

    /// The line of `reading` at `time`, as the live daemon journals it (`input_reading`).
    static func line(_ reading: InputReading, time: Double) -> String {
        var l = Line(input: reading.input.rawValue, on: false, time: Timestamp.iso8601(time))
        switch reading {
        case .level(_, let on): l.on = on
        case .power(let online, let pct, let volts):
            l.on = online
            l.batteryPct = pct
            l.volts = volts.map { $0.rounded(decimals: 3) }
        }
        return ReplyEncoder.encode(l)
    }

    struct Line: Encodable {
        var `class` = ReplayInput.className
        var input: String
        var on: Bool
        @Omitted var batteryPct: Int?
        @Omitted var volts: Double?
        var time: String

        enum CodingKeys: String, CodingKey {
            case `class`, input, on
            case batteryPct = "battery_pct"
            case volts, time
        }
    }

    /// The reading and its time, or why the line is not one.
    static func parse(_ bytes: [UInt8]) -> Result<(InputReading, Double), ReplayInputError> {
        guard let v = try? JSONValue.parse(bytes) else { return .failure(.init("an INPUT line that is not JSON")) }
        guard let name = v["input"]?.string.flatMap(InputName.init(rawValue:)) else {
            return .failure(.init("INPUT: \"input\" must be ignition, power or sos"))
        }
        guard let on = v["on"]?.bool else { return .failure(.init("INPUT: \"on\" must be true or false")) }
        guard let t = v["time"]?.string.flatMap(Timestamp.parse) else {
            return .failure(.init("INPUT: \"time\" must be an ISO 8601 UTC time"))
        }
        switch name {
        case .ignition, .sos:
            return .success((.level(name, on: on), t))
        case .power:
            var pct: Int?
            if let p = v["battery_pct"] {
                guard let n = p.number, n.isFinite, n == n.rounded(), (0...100).contains(n) else {
                    return .failure(.init("INPUT: \"battery_pct\" must be a whole number from 0 to 100"))
                }
                pct = Int(n)
            }
            var volts: Double?
            if let x = v["volts"] {
                guard let n = x.number, n.isFinite, (0...1000).contains(n) else {
                    return .failure(.init("INPUT: \"volts\" must be a number from 0 to 1000"))
                }
                volts = n
            }
            return .success((.power(online: on, batteryPct: pct, volts: volts), t))
        }
    }
}

/// Why an INPUT line was refused.
struct ReplayInputError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
