import GPSTrackCore

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

    /// Longest request line accepted.
    public static let maxLineBytes = 64 * 1024

    /// Commands that change the daemon's state and need a privileged peer.
    public var isMutating: Bool {
        switch self {
        case .start, .stop, .reset, .reload: true
        default: false
        }
    }

    /// Parses one request line; the error is the message for the client.
    public static func parse(_ line: ArraySlice<UInt8>) -> Result<ControlRequest, ControlError> {
        guard let value = try? JSONValue.parse(Array(line)) else { return .failure(.init("invalid JSON")) }
        guard case .object(let o) = value else { return .failure(.init("a request is a JSON object")) }
        guard let cmdValue = o["cmd"] else { return .failure(.init("missing \"cmd\"")) }
        guard let cmd = cmdValue.string else { return .failure(.init("\"cmd\" must be a string")) }
        let allowed: Set<String> = cmd == "state" ? ["cmd", "fence"] : ["cmd"]
        if let extra = o.keys.sorted().first(where: { !allowed.contains($0) }) {
            return .failure(.init("unexpected field \"\(extra)\" for \(cmd)"))
        }
        switch cmd {
        case "status": return .success(.status)
        case "fences": return .success(.fences)
        case "state":
            guard let f = o["fence"] else { return .failure(.init("state needs \"fence\"")) }
            guard let id = f.string else { return .failure(.init("\"fence\" must be a string")) }
            return .success(.state(fence: id))
        case "start": return .success(.start)
        case "stop": return .success(.stop)
        case "reset": return .success(.reset)
        case "reload": return .success(.reload)
        case "watch": return .success(.watch)
        default:
            return .failure(.init("unknown cmd \"\(cmd.prefix(64))\" (status, fences, state, start, stop, reset, reload, watch)"))
        }
    }
}

/// An error response's message.
public struct ControlError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }

    /// `{"ok":false,"error":"…"}`
    public var line: String {
        var o = JSONObject()
        o.add("ok", false)
        o.add("error", message)
        return o.encoded
    }
}
