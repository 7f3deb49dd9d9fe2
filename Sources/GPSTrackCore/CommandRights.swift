/// Who may send each command that reaches the daemon: the control socket's (gpstrackctl) and
/// the broker's (`<base>/cmd`, and the OwnTracks HTTP server's replies, which take the same
/// path). One table: the control server asks it whether a request needs an administrator, the
/// broker's command path whether an action runs without or only with `mqtt_command_allow`,
/// `mqtt_command_allow` which names it knows, and docs/SECURITY.md lists it (a test keeps the
/// two equal).
public enum CommandRights {
    /// Where a command comes from.
    public enum Channel: String, Sendable {
        /// The control socket (mode 0660, `socket_group`).
        case socket = "control socket"
        /// `<base>/cmd` on the broker, or a command in the OwnTracks HTTP server's reply.
        case broker = "broker"
    }

    /// Who may send it.
    public enum Sender: String, Sendable {
        /// Any peer that can connect: root, the daemon's user and members of `socket_group`.
        case reader = "socket_group"
        /// Root, the daemon's user, and members of `admin_group` (none unless set).
        case admin = "admin: root, the daemon's user, admin_group"
        /// Anyone who may publish on the topic (with `mqtt_secret_file`: who holds the secret),
        /// even with `mqtt_commands = off`.
        case always = "publisher, even with mqtt_commands = off"
        /// A publisher, with `mqtt_commands = on`, when `mqtt_command_allow` lists it, as it
        /// does by default.
        case allowedByDefault = "publisher, mqtt_commands = on; in mqtt_command_allow by default"
        /// A publisher, with `mqtt_commands = on`, only when `mqtt_command_allow` names it.
        case allowList = "publisher, mqtt_commands = on; only if named in mqtt_command_allow"
    }

    /// One command: its name on its channel, who may send it, and whether it changes the
    /// daemon's state (trip, guard, fences, anchor) or only reports.
    public struct Row: Sendable, Equatable {
        public var channel: Channel
        public var name: String
        public var sender: Sender
        public var changes: Bool
    }

    /// The table. A control socket command absent from it is refused as unknown to the table
    /// (an administrator's): a new command is a reader's only once it is listed here.
    public static let table: [Row] = [
        Row(channel: .socket, name: "status", sender: .reader, changes: false),
        Row(channel: .socket, name: "fences", sender: .reader, changes: false),
        Row(channel: .socket, name: "state", sender: .reader, changes: false),
        Row(channel: .socket, name: "watch", sender: .reader, changes: false),
        Row(channel: .socket, name: "trips", sender: .reader, changes: false),
        Row(channel: .socket, name: "stops", sender: .reader, changes: false),
        Row(channel: .socket, name: "events", sender: .reader, changes: false),
        Row(channel: .socket, name: "steps", sender: .reader, changes: false),
        Row(channel: .socket, name: "export", sender: .reader, changes: false),
        Row(channel: .socket, name: "export_page", sender: .reader, changes: false),
        Row(channel: .socket, name: "anchor", sender: .reader, changes: false),
        Row(channel: .socket, name: "start", sender: .admin, changes: true),
        Row(channel: .socket, name: "stop", sender: .admin, changes: true),
        Row(channel: .socket, name: "reset", sender: .admin, changes: true),
        Row(channel: .socket, name: "reload", sender: .admin, changes: true),
        Row(channel: .socket, name: "guard", sender: .admin, changes: true),
        Row(channel: .socket, name: "guard_ack", sender: .admin, changes: true),
        Row(channel: .socket, name: "anchor drop", sender: .admin, changes: true),
        Row(channel: .socket, name: "anchor raise", sender: .admin, changes: true),
        Row(channel: .socket, name: "anchor ack", sender: .admin, changes: true),
        Row(channel: .broker, name: "reportSteps", sender: .always, changes: false),
        Row(channel: .broker, name: "reportLocation", sender: .allowedByDefault, changes: false),
        Row(channel: .broker, name: "status", sender: .allowedByDefault, changes: false),
        Row(channel: .broker, name: "waypoints", sender: .allowedByDefault, changes: false),
        Row(channel: .broker, name: "dump", sender: .allowList, changes: false),
        Row(channel: .broker, name: "setWaypoints", sender: .allowList, changes: true),
        Row(channel: .broker, name: "setFences", sender: .allowList, changes: true),
        Row(channel: .broker, name: "guard", sender: .allowList, changes: true),
        Row(channel: .broker, name: "trip", sender: .allowList, changes: true),
        Row(channel: .broker, name: "reload", sender: .allowList, changes: true),
        Row(channel: .broker, name: "anchor", sender: .allowList, changes: true),
    ]

    /// Who may send `name` on `channel`; nil for a name the table does not list.
    public static func sender(_ name: String, on channel: Channel) -> Sender? {
        table.first { $0.channel == channel && $0.name == name }?.sender
    }

    /// Whether a control socket command needs an administrator (an unlisted one does).
    public static func socketNeedsAdmin(_ name: String) -> Bool {
        sender(name, on: .socket) != .reader
    }

    /// The broker actions `mqtt_command_allow` may name.
    public static var allowListActions: [String] {
        table.filter { $0.channel == .broker && ($0.sender == .allowList || $0.sender == .allowedByDefault) }
            .map(\.name)
    }

    /// The broker actions allowed unless `mqtt_command_allow` says otherwise: those that only report.
    public static var defaultAllowed: [String] {
        table.filter { $0.channel == .broker && $0.sender == .allowedByDefault }.map(\.name)
    }

    /// The table as docs/SECURITY.md shows it: a Markdown table, one line a row.
    public static var markdown: [String] {
        ["| channel | command | who may send it | changes state |", "|---|---|---|---|"]
            + table.map { row in
                "| \(row.channel.rawValue) | `\(row.name)` | \(row.sender.rawValue) | \(row.changes ? "yes" : "no") |"
            }
    }
}
