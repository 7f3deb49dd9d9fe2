/// Every command name the daemon accepts, once: the control socket's `cmd`, the broker's
/// `action` (and the OwnTracks HTTP server's, which takes the broker's path) and the anchor
/// watch's verbs. Each channel has its own names, as the two wires spell them (OwnTracks'
/// camelCase, the socket's snake_case) and mean them (`status` on the broker publishes, on the
/// socket replies), so each is an enum of its own; who may send which is `CommandRights`'.
/// Code matches on these cases, never on the strings: a name is read once, at the edge, with
/// `init(rawValue:)`, and a new case does not compile until every switch says what it does.
public enum CommandName {
    /// A control socket request's `cmd` (`{"cmd":"status"}`), in the order the unknown-command
    /// reply lists them.
    public enum Socket: String, Sendable, CaseIterable, CustomStringConvertible {
        case status, fences, state, start, stop, reset, reload, watch, trips, stops, `guard`, events, export
        case exportPage = "export_page"
        case steps, anchor
        case guardAck = "guard_ack"
        case sosAck = "sos_ack"

        /// The name itself, as the wire has it.
        public var description: String { rawValue }
    }

    /// A broker command's `action` (`{"_type":"cmd","action":"reportLocation"}`): OwnTracks'
    /// and gpstrackd's own, in the order docs/SECURITY.md lists them.
    public enum Broker: String, Sendable, CaseIterable, CustomStringConvertible {
        case reportSteps, reportLocation, status, waypoints, dump, setWaypoints, setFences, `guard`, trip, reload
        case anchor

        /// The name itself, as the wire has it.
        public var description: String { rawValue }
    }

    /// The anchor watch's verbs: the socket's `anchor` request's `action` (`drop`, `raise`,
    /// `ack`; no action asks for the status) and the broker's `anchor` member (all four).
    public enum AnchorVerb: String, Sendable, CaseIterable, CustomStringConvertible {
        case drop, raise, ack, status

        /// The verb itself, as the wire has it.
        public var description: String { rawValue }
    }
}
