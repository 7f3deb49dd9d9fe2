import GPSTrackVocabulary

/// A fence's state: `unknown` before the first determination, while the fix is lost or stale,
/// or while the error circle straddles the boundary too much to decide.
public enum FenceState: String, Sendable {
    case inside, outside, unknown
}

/// A geofence event.
public struct FenceEvent: Sendable {
    public enum Kind: Sendable, Equatable {
        case enter, exit, dwell
        /// A determination with no transition (start-up, reload, fix regained) that found the
        /// fence `inside`, or the loss of the fix for a fence that was inside (`unknown`).
        /// Fences found outside are only counted, in the determination's `FenceCounts`.
        case state(FenceState)

        public var name: EventName {
            switch self {
            case .enter: .enter
            case .exit: .exit
            case .dwell: .dwell
            case .state: .state
            }
        }
    }

    public var kind: Kind
    /// The fence's id, as in the fences file.
    public var fenceID: String
    /// The fence's name, if it has one.
    public var fenceName: String?
    /// The fence's dwell time, seconds (for a dwell's wording).
    public var dwellS: Double?
    /// Index of the fence in the monitor's `FenceIndex` (the core's own bookkeeping; reporters
    /// use `fenceID`, which outlives a reload).
    var fence: Int
    /// Fix time of the event, seconds since the Unix epoch.
    public var time: Double
    /// The position the event was decided on (the last known one for a loss; for a crossing,
    /// the boundary point interpolated along the segment).
    public var coordinate: Coordinate?
    /// An enter or exit found between two fixes, neither of them inside (times interpolated).
    public var crossed = false

    init(kind: Kind, fence: Int, in index: FenceIndex, time: Double, coordinate: Coordinate?, crossed: Bool = false) {
        self.kind = kind
        self.fence = fence
        let f = index.fences[fence]
        fenceID = f.id
        fenceName = f.name
        dwellS = f.dwellS
        self.time = time
        self.coordinate = coordinate
        self.crossed = crossed
    }
}

/// The outcome of one determination of every fence (first fix, after a reload, fix regained):
/// how many fences are inside, outside and undecided. One summary instead of a `state` event
/// per fence found outside.
public struct FenceCounts: Sendable, Equatable {
    public var inside: Int
    public var outside: Int
    public var unknown: Int
    /// Fix time of the determination.
    public var time: Double

    public init(inside: Int, outside: Int, unknown: Int, time: Double) {
        self.inside = inside
        self.outside = outside
        self.unknown = unknown
        self.time = time
    }
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
