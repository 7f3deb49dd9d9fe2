import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// A command from the broker's `<base>/cmd` (OwnTracks' `{"_type":"cmd","action":…}`), read by
/// `parse`: pure, bounded, every member checked. Whoever may publish on the topic is hostile until
/// this has said otherwise; a refusal says why, in words for the journal and the answer.
public enum MQTTCommand: Sendable, Equatable {
    /// OwnTracks' `reportSteps`, with its optional `from` and `to` (Unix seconds).
    case reportSteps(from: Double?, to: Double?)
    case reportLocation
    case status
    case dump
    case waypoints
    /// `{"action":"guard","on":true}`: the parked guard on or off.
    case `guard`(Bool)
    /// `{"action":"guard","ack":true}`: the guard's latched alarm acknowledged (`guard ack`).
    case guardAck
    /// `{"action":"trip","trip":"start"}`: the manual trip's verbs.
    case trip(TripVerb)
    case reload
    /// OwnTracks' `setWaypoints`: the pushed circles, replacing the pushed set.
    case setWaypoints([Waypoint])
    /// gpstrackd's `setFences`: a GeoJSON FeatureCollection, replacing the pushed fences.
    case setFences(FenceSet)
    /// `{"action":"anchor","anchor":"drop","radius":40}`: the anchor watch's verbs.
    case anchor(AnchorCommand)

    public enum TripVerb: String, Sendable, CaseIterable { case start, stop, reset }

    /// Why a payload is not a command to run; `action` when it named one (printable, bounded).
    public struct Refusal: Error, Sendable, Equatable {
        public var action: String?
        public var reason: String
    }

    /// Longest payload read (the publisher drops longer ones before they get here): room for
    /// `maxPushed` waypoints of about 110 bytes each, and twice that.
    public static let maxBytes = 4 << 20
    /// Deepest nesting of arrays and objects: a command is one flat object, but for the pushed
    /// sets; `setFences`' MultiPolygon is the deepest (command, collection, features, feature,
    /// geometry, coordinates, polygon, ring, position).
    public static let maxDepth = 9
    /// Longest action name echoed in a refusal.
    static let maxEcho = 64

    /// The action's name as OwnTracks or gpstrackd spells it.
    public var name: CommandName.Broker {
        switch self {
        case .reportSteps: .reportSteps
        case .reportLocation: .reportLocation
        case .status: .status
        case .dump: .dump
        case .waypoints: .waypoints
        case .guard, .guardAck: .guard
        case .trip: .trip
        case .reload: .reload
        case .setWaypoints: .setWaypoints
        case .setFences: .setFences
        case .anchor: .anchor
        }
    }

    /// The action's name as text (answers, refusals, the journal).
    public var action: String { name.rawValue }

    /// The members each action takes besides `_type` and `action`.
    static func members(_ name: CommandName.Broker) -> Set<String> {
        switch name {
        case .reportSteps: ["from", "to"]
        case .guard: ["on", "ack"]
        case .trip: ["trip"]
        case .setWaypoints: ["waypoints"]
        case .setFences: ["fences"]
        case .anchor: anchorMembers
        case .reportLocation, .status, .dump, .waypoints, .reload: []
        }
    }

    /// Reads one payload. Refused: more than `maxBytes`, nested deeper than `maxDepth`, not JSON,
    /// not an object, `_type` other than `cmd`, an action unknown or not (yet) run from the
    /// broker, a member the action does not take, a member of the wrong type or out of range.
    public static func parse(_ payload: [UInt8]) -> Result<MQTTCommand, Refusal> {
        guard payload.count <= maxBytes else { return .failure(Refusal(reason: "longer than \(maxBytes) bytes")) }
        guard depth(payload, limit: maxDepth) <= maxDepth else {
            return .failure(Refusal(reason: "nested deeper than \(maxDepth)"))
        }
        let value: JSONValue
        do { value = try JSONValue.parse(payload) } catch { return .failure(Refusal(reason: "not JSON: \(error)")) }
        guard case .object(let o) = value else { return .failure(Refusal(reason: "not a JSON object")) }
        guard let type = o["_type"] else {
            return .failure(Refusal(reason: "no \"_type\" (a command has \"_type\":\"cmd\")"))
        }
        guard type.string == "cmd" else {
            return .failure(Refusal(reason: "\"_type\" is \(describe(type)), not \"cmd\""))
        }
        guard let actionValue = o["action"] else { return .failure(Refusal(reason: "no \"action\"")) }
        guard let action = actionValue.string else {
            return .failure(Refusal(reason: "\"action\" is \(describe(actionValue)), not a string"))
        }
        let echo = printable(action)
        func refuse(_ reason: String) -> Result<MQTTCommand, Refusal> {
            .failure(Refusal(action: echo, reason: reason))
        }
        guard let name = CommandName.Broker(rawValue: action) else { return refuse("unknown action") }
        // `tst` (OwnTracks' time of the message) any command may carry; an encrypted one must.
        let extra = o.keys.filter {
            $0 != "_type" && $0 != "action" && $0 != "tst" && !members(name).contains($0)
        }.sorted()
        if let first = extra.first {
            return refuse(
                "unknown member \(ReplyEncoder.quote(printable(first)))"
                    + (extra.count > 1 ? " (and \(extra.count - 1) more)" : ""))
        }
        switch name {
        case .reportLocation: return .success(.reportLocation)
        case .status: return .success(.status)
        case .dump: return .success(.dump)
        case .waypoints: return .success(.waypoints)
        case .reload: return .success(.reload)
        case .reportSteps:
            var times: [Double?] = []
            for key in ["from", "to"] {
                guard let v = o[key] else {
                    times.append(nil)
                    continue
                }
                guard let t = v.number, t.isFinite, t >= 0, t < 1e11 else {
                    return refuse("\"\(key)\" is \(describe(v)), not Unix seconds from 0 to 1e11")
                }
                times.append(t)
            }
            return .success(.reportSteps(from: times[0], to: times[1]))
        case .guard:
            if let ack = o["ack"] {
                guard case .bool(true) = ack, o["on"] == nil else {
                    return refuse("\"ack\" is \(describe(ack)), not true alone (without \"on\")")
                }
                return .success(.guardAck)
            }
            guard let v = o["on"] else { return refuse("no \"on\" (true or false) or \"ack\": true") }
            guard case .bool(let on) = v else { return refuse("\"on\" is \(describe(v)), not true or false") }
            return .success(.guard(on))
        case .trip:
            guard let v = o["trip"] else { return refuse("no \"trip\" (start, stop or reset)") }
            guard let verb = v.string.flatMap(TripVerb.init(rawValue:)) else {
                return refuse("\"trip\" is \(describe(v)), not \"start\", \"stop\" or \"reset\"")
            }
            return .success(.trip(verb))
        case .setWaypoints:
            guard let v = o["waypoints"] else { return refuse("no \"waypoints\"") }
            switch waypointList(v) {
            case .success(let list): return .success(.setWaypoints(list))
            case .failure(let why): return refuse(why.text)
            }
        case .setFences:
            guard let v = o["fences"] else { return refuse("no \"fences\" (a GeoJSON FeatureCollection)") }
            switch fenceSet(v) {
            case .success(let set): return .success(.setFences(set))
            case .failure(let why): return refuse(why.text)
            }
        case .anchor:
            switch anchor(o) {
            case .success(let a): return .success(.anchor(a))
            case .failure(let why): return refuse(why.text)
            }
        }
    }

    /// The deepest nesting of arrays and objects, counted outside strings; stops once past `limit`
    /// (so that a deep document costs nothing to refuse).
    static func depth(_ bytes: [UInt8], limit: Int) -> Int {
        var d = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for c in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if c == 0x5C {
                    escaped = true
                } else if c == 0x22 {
                    inString = false
                }
                continue
            }
            switch c {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                d += 1
                deepest = max(deepest, d)
                if deepest > limit { return deepest }
            case 0x5D, 0x7D: d -= 1
            default: break
            }
        }
        return deepest
    }

    /// A value named in a refusal: its type, and a short text's quoted prefix.
    static func describe(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number: "a number"
        case .string(let s): ReplyEncoder.quote(printable(s))
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// `s` cut to `maxEcho` characters, control characters as `?` (it goes to the journal).
    static func printable(_ s: String) -> String {
        String(
            String.UnicodeScalarView(
                s.unicodeScalars.prefix(maxEcho).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}
