/// The dense track while at anchor: every accepted fix, for the swing picture, bounded so that
/// a week at anchor costs no more than `capacity` points (the oldest go first).
public struct AnchorTrack: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var time: Double
        public var at: Coordinate
        /// The fix's horizontal error estimate, metres, if it had one.
        public var errorM: Double?
        /// gpsd's fix mode: 2 for 2D, 3 for 3D (0 unknown).
        public var mode = 0
    }

    /// Most points kept: half a day at 1 Hz.
    public static let capacity = 43_200

    public private(set) var points: [Point] = []
    /// Points dropped from the front to keep within the capacity.
    public private(set) var dropped = 0

    public init() {}

    mutating func append(_ p: Point) {
        points.append(p)
        if points.count > Self.capacity {
            // A tenth at once: removing from the front is linear, done rarely.
            let n = Self.capacity / 10
            points.removeFirst(n)
            dropped += n
        }
    }

    mutating func clear() {
        points = []
        dropped = 0
    }
}
