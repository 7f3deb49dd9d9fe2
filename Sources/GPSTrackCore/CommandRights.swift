import GPSTrackVocabulary

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

    /// A command as its rights see it: a socket request by its `cmd`, but `anchor` with an
    /// `action` apart (the status is a reader's, the verbs change the watch), or a broker action.
    public enum Command: Sendable, Hashable {
        case socket(CommandName.Socket)
        /// `{"cmd":"anchor","action":…}`: `anchor drop`, `anchor raise`, `anchor ack`.
        case socketAnchor(CommandName.AnchorVerb)
        case broker(CommandName.Broker)

        /// Where it comes from.
        public var channel: Channel {
            switch self {
            case .socket, .socketAnchor: .socket
            case .broker: .broker
            }
        }

        /// Its name as the table, a refusal and docs/SECURITY.md write it (`anchor drop`).
        public var name: String {
            switch self {
            case .socket(let c): c.rawValue
            case .socketAnchor(let verb): "\(CommandName.Socket.anchor) \(verb)"
            case .broker(let a): a.rawValue
            }
        }

        /// Every command in the table's order: the socket's readers, its administrators', the
        /// anchor's verbs, then the broker's actions.
        public static var all: [Command] {
            let socket = CommandName.Socket.allCases.map(Command.socket)
            return socket.filter { sender($0) == .reader } + socket.filter { sender($0) != .reader }
                + CommandName.AnchorVerb.allCases.filter { $0 != .status }.map(Command.socketAnchor)
                + CommandName.Broker.allCases.map(Command.broker)
        }
    }

    /// One command: its name on its channel, who may send it, and whether it changes the
    /// daemon's state (trip, guard, fences, anchor) or only reports.
    public struct Row: Sendable, Equatable {
        public var command: Command
        public var sender: Sender
        public var changes: Bool
        public var channel: Channel { command.channel }
        public var name: String { command.name }
    }

    /// The table, one row a command, from `sender(_:)` and `changes(_:)`.
    public static var table: [Row] {
        Command.all.map { Row(command: $0, sender: sender($0), changes: changes($0)) }
    }

    /// Who may send `command`: a new command does not compile until it is said here.
    public static func sender(_ command: Command) -> Sender {
        switch command {
        case .socket(let c):
            switch c {
            case .status, .fences, .state, .watch, .trips, .stops, .events, .steps, .export, .exportPage, .anchor:
                .reader
            case .start, .stop, .reset, .reload, .guard, .guardAck, .sosAck: .admin
            }
        case .socketAnchor(let verb):
            switch verb {
            case .status: .reader
            case .drop, .raise, .ack: .admin
            }
        case .broker(let a):
            switch a {
            case .reportSteps: .always
            case .reportLocation, .status, .waypoints: .allowedByDefault
            case .dump, .setWaypoints, .setFences, .guard, .trip, .reload, .anchor: .allowList
            }
        }
    }

    /// Whether `command` changes the daemon's state (a socket command does when only an
    /// administrator may send it; the broker's `dump` is on the allow list yet only reports).
    public static func changes(_ command: Command) -> Bool {
        switch command {
        case .socket, .socketAnchor: sender(command) == .admin
        case .broker(let a):
            switch a {
            case .reportSteps, .reportLocation, .status, .waypoints, .dump: false
            case .setWaypoints, .setFences, .guard, .trip, .reload, .anchor: true
            }
        }
    }

    /// Whether a control socket command needs an administrator.
    public static func socketNeedsAdmin(_ command: Command) -> Bool {
        sender(command) != .reader
    }

    /// The broker actions `mqtt_command_allow` may name.
    public static var allowListActions: [CommandName.Broker] {
        CommandName.Broker.allCases.filter {
            let s = sender(.broker($0))
            return s == .allowList || s == .allowedByDefault
        }
    }

    /// The broker actions allowed unless `mqtt_command_allow` says otherwise: those that only report.
    public static var defaultAllowed: [CommandName.Broker] {
        CommandName.Broker.allCases.filter { sender(.broker($0)) == .allowedByDefault }
    }

    /// The table as docs/SECURITY.md shows it: a Markdown table, one line a row.
    public static var markdown: [String] {
        ["| channel | command | who may send it | changes state |", "|---|---|---|---|"]
            + table.map { row in
                "| \(row.channel.rawValue) | `\(row.name)` | \(row.sender.rawValue) | \(row.changes ? "yes" : "no") |"
            }
    }
}
