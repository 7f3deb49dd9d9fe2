import GPSTrackJSON

/// A request on the control socket: one JSON object per line, `{"cmd":"status"}`.
public enum ControlRequest: Sendable, Equatable {
    case status
    case fences
    case state(fence: String)
    case start
    case stop
    case reset
    case reload
    case watch
    case trips
    case stops
    /// `{"cmd":"guard","on":true}`: the parked guard on or off.
    case `guard`(Bool)
    case events(since: Double?, fence: String?)
    case export(trip: Int64?, since: Double?, until: Double?)
    case steps(since: Double?)
    /// `{"cmd":"export_page",…}`: a page of the history `export --format` writes (see `ExportPage`).
    case exportPage(ExportScope, after: Int?, limit: Int? = nil)
    /// `{"cmd":"anchor",…}`: the anchor watch (see `AnchorCommand`).
    case anchor(AnchorCommand)
    /// `{"cmd":"guard_ack"}`: the parked guard's latched breach acknowledged.
    case guardAck
    /// `{"cmd":"sos_ack"}`: the panic button's latched alarm acknowledged.
    case sosAck

    /// The version of gpstrackd and gpstrackctl (one release, one protocol).
    public static let version = "0.2.0"

    /// Where the daemon listens unless the configuration says otherwise.
    public static let defaultSocketPath = "/run/gpstrackd/gpstrackd.sock"

    /// The request as the line a client sends (`parse` reads it back to the same request).
    public var line: String { ReplyEncoder.encode(self) }

    /// Longest request line accepted.
    public static let maxLineBytes = 64 * 1024

    /// Parses one request line; the error is the message for the client.
    public static func parse(_ line: ArraySlice<UInt8>) -> Result<ControlRequest, ControlError> {
        guard let value = try? JSONValue.parse(Array(line)) else { return .failure(.init("invalid JSON")) }
        guard case .object(let o) = value else { return .failure(.init("a request is a JSON object")) }
        guard let cmdValue = o["cmd"] else { return .failure(.init("missing \"cmd\"")) }
        guard let cmd = cmdValue.string else { return .failure(.init("\"cmd\" must be a string")) }
        let name = CommandName.Socket(rawValue: cmd)
        let allowed = (name.map(fields) ?? []).union(["cmd"])
        func time(_ key: String) -> Result<Double?, ControlError> {
            guard let v = o[key] else { return .success(nil) }
            guard let s = v.string, let t = Timestamp.parse(s) else {
                return .failure(.init("\"\(key)\" must be a UTC time like 2026-03-14T08:00:00Z"))
            }
            return .success(t)
        }
        if let extra = o.keys.sorted().first(where: { !allowed.contains($0) }) {
            return .failure(.init("unexpected field \"\(extra)\" for \(cmd)"))
        }
        guard let name else {
            let known = CommandName.Socket.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(.init("unknown cmd \"\(cmd.prefix(64))\" (\(known))"))
        }
        switch name {
        case .status: return .success(.status)
        case .fences: return .success(.fences)
        case .state:
            guard let f = o["fence"] else { return .failure(.init("state needs \"fence\"")) }
            guard let id = f.string else { return .failure(.init("\"fence\" must be a string")) }
            return .success(.state(fence: id))
        case .start: return .success(.start)
        case .stop: return .success(.stop)
        case .reset: return .success(.reset)
        case .reload: return .success(.reload)
        case .watch: return .success(.watch)
        case .trips: return .success(.trips)
        case .stops: return .success(.stops)
        case .guard:
            guard case .bool(let on)? = o["on"] else { return .failure(.init("guard needs \"on\": true or false")) }
            return .success(.guard(on))
        case .events:
            if let f = o["fence"], f.string == nil { return .failure(.init("\"fence\" must be a string")) }
            return time("since").map { .events(since: $0, fence: o["fence"]?.string) }
        case .steps:
            return time("since").map { .steps(since: $0) }
        case .export:
            if let f = o["format"], f.string != "gpx" { return .failure(.init("\"format\" must be \"gpx\"")) }
            var trip: Int64?
            if let t = o["trip"] {
                guard let n = t.number, n == n.rounded(), n >= 1, n < 1e15 else {
                    return .failure(.init("\"trip\" must be a trip id"))
                }
                trip = Int64(clamping: n)
            }
            switch (time("since"), time("until")) {
            case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
            case (.success(let since), .success(let until)):
                return .success(.export(trip: trip, since: since, until: until))
            }
        case .exportPage:
            return exportPage(o, time)
        case .anchor:
            return AnchorCommand.parse(o)
        case .guardAck: return .success(.guardAck)
        case .sosAck: return .success(.sosAck)
        }
    }

    /// The fields each request may have beside `cmd`.
    static func fields(_ name: CommandName.Socket) -> Set<String> {
        switch name {
        case .state: ["fence"]
        case .events: ["since", "fence"]
        case .guard: ["on"]
        case .export: ["format", "trip", "since", "until"]
        case .steps: ["since"]
        case .exportPage: ["trip", "since", "until", "anchor", "after", "limit"]
        case .anchor: AnchorCommand.fields
        case .status, .fences, .start, .stop, .reset, .reload, .watch, .trips, .stops, .guardAck, .sosAck: []
        }
    }

    /// The request's `cmd`.
    public var name: CommandName.Socket {
        switch self {
        case .status: .status
        case .fences: .fences
        case .state: .state
        case .start: .start
        case .stop: .stop
        case .reset: .reset
        case .reload: .reload
        case .watch: .watch
        case .trips: .trips
        case .stops: .stops
        case .guard: .guard
        case .events: .events
        case .export: .export
        case .steps: .steps
        case .exportPage: .exportPage
        case .anchor: .anchor
        case .guardAck: .guardAck
        case .sosAck: .sosAck
        }
    }
}

extension ControlRequest {
    /// `export_page`'s fields read: a trip id, times, the cursor (a point's id) and the page's
    /// size (at most `ExportPage.limit`, the default).
    static func exportPage(
        _ o: [String: JSONValue],
        _ time: (String) -> Result<Double?, ControlError>
    ) -> Result<ControlRequest, ControlError> {
        func id(_ key: String) -> Result<Int?, ControlError> {
            guard let v = o[key] else { return .success(nil) }
            guard let n = v.number, n == n.rounded(), n >= 0, n < 1e15 else {
                return .failure(.init("\"\(key)\" must be an id"))
            }
            return .success(Int(clamping: n))
        }
        if case .failure(let e) = id("limit") { return .failure(e) }
        let limit = (try? id("limit").get()) ?? nil
        if let limit, limit < 1 { return .failure(.init("\"limit\" must be 1 or more")) }
        switch (id("trip"), id("after"), time("since"), time("until")) {
        case (.failure(let e), _, _, _), (_, .failure(let e), _, _), (_, _, .failure(let e), _),
            (_, _, _, .failure(let e)):
            return .failure(e)
        case (.success(let trip), .success(let after), .success(let since), .success(let until)):
            if trip == 0 { return .failure(.init("\"trip\" must be a trip id")) }
            if trip != nil && (since != nil || until != nil) {
                return .failure(.init("\"trip\" or \"since\"/\"until\", not both"))
            }
            guard o["anchor"] == nil || o["anchor"] == .bool(true) || o["anchor"] == .bool(false) else {
                return .failure(.init("\"anchor\" must be true or false"))
            }
            let anchor = o["anchor"] == .bool(true)
            if anchor && (trip != nil || since != nil || until != nil) {
                return .failure(.init("\"anchor\" takes no \"trip\", \"since\" or \"until\""))
            }
            return .success(
                .exportPage(
                    ExportScope(trip: trip.map(Int64.init), since: since, until: until, anchor: anchor), after: after,
                    limit: limit))
        }
    }
}

/// An error response's message.
public struct ControlError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }

    /// `{"ok":false,"error":"…"}`
    public var line: String { ReplyEncoder.encode(ErrorReply(error: message)) }
}

extension ControlRequest: Encodable {
    /// `cmd`, then the command's fields, each only when given.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        func time(_ t: Double?, _ key: JSONKey) throws {
            if let t { try c.encode(Timestamp.iso8601(t), forKey: key) }
        }
        try c.encode(name.rawValue, forKey: "cmd")
        switch self {
        case .status, .fences, .start, .stop, .reset, .reload, .watch, .trips, .stops, .guardAck, .sosAck: break
        case .state(let fence): try c.encode(fence, forKey: "fence")
        case .guard(let on): try c.encode(on, forKey: "on")
        case .events(let since, let fence):
            try time(since, "since")
            if let fence { try c.encode(fence, forKey: "fence") }
        case .steps(let since): try time(since, "since")
        case .export(let trip, let since, let until):
            try c.encode("gpx", forKey: "format")
            if let trip { try c.encode(Int(trip), forKey: "trip") }
            try time(since, "since")
            try time(until, "until")
        case .exportPage(let scope, let after, let limit):
            if let trip = scope.trip { try c.encode(Int(trip), forKey: "trip") }
            try time(scope.since, "since")
            try time(scope.until, "until")
            if scope.anchor { try c.encode(true, forKey: "anchor") }
            if let after { try c.encode(after, forKey: "after") }
            if let limit { try c.encode(limit, forKey: "limit") }
        case .anchor(let a): try a.encode(into: &c)
        }
    }
}
