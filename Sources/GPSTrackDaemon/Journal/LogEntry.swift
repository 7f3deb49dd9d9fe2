import GPSTrackCore
import GPSTrackProtocol

/// One structured log entry: a message for people and fields for machines.
public struct LogEntry: Sendable {
    /// syslog priorities.
    public enum Priority: Int, Sendable {
        /// An alarm that needs a person now (the anchor dragging, no position at anchor).
        case crit = 2
        case err = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7

        var name: String {
            switch self {
            case .crit: "crit"
            case .err: "err"
            case .warning: "warning"
            case .notice: "notice"
            case .info: "info"
            case .debug: "debug"
            }
        }
    }

    /// The `GPSTRACK_EVENT` value.
    public var event: EventName
    public var priority: Priority
    /// `MESSAGE`, readable by a person.
    public var message: String
    /// Further `GPSTRACK_*` (or other UPPER_SNAKE) fields.
    public var fields: [(JournalField, String)]

    public init(event: EventName, priority: Priority, message: String, fields: [(JournalField, String)] = []) {
        self.event = event
        self.priority = priority
        self.message = message
        self.fields = fields
    }
}
