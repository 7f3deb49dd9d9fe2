/// A fence's state: `unknown` before the first determination, while the fix is lost or stale,
/// or while the error circle straddles the boundary too much to decide.
public enum FenceState: String, Sendable {
    case inside, outside, unknown
}

/// A geofence event.
public struct FenceEvent: Sendable {
    public enum Kind: Sendable, Equatable {
        case enter, exit, dwell
        /// A determination with no transition (start-up, fix regained), or the loss of the fix.
        case state(FenceState)

        public var name: String {
            switch self {
            case .enter: "enter"
            case .exit: "exit"
            case .dwell: "dwell"
            case .state: "state"
            }
        }
    }

    public var kind: Kind
    /// Index of the fence in `FenceIndex.fences`.
    public var fence: Int
    /// Fix time of the event, seconds since the Unix epoch.
    public var time: Double
    /// The position the event was decided on (the last known one for a loss).
    public var coordinate: Coordinate?
}

/// What is known of one fence.
public struct FenceStatus: Sendable {
    public internal(set) var state: FenceState = .unknown
    /// When the state last changed (fix time).
    public internal(set) var since: Double?
    /// The last determined membership, kept through a loss of the fix.
    public internal(set) var membership: Bool?
    /// When the current stay inside began.
    public internal(set) var enteredAt: Double?
    var dwellSent = false
    /// The last event reported for the fence.
    public internal(set) var lastEvent: FenceEvent.Kind?
}

/// What must survive a restart of one fence: its membership, its stay and its dwell.
public struct FenceMemory: Sendable, Equatable {
    public var membership: Bool?
    public var since: Double?
    public var enteredAt: Double?
    public var dwellSent: Bool

    public init(membership: Bool?, since: Double?, enteredAt: Double?, dwellSent: Bool) {
        self.membership = membership
        self.since = since
        self.enteredAt = enteredAt
        self.dwellSent = dwellSent
    }
}
