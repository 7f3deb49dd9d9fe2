extension StatusReply {
    /// One receiver gpsd reported (`receivers`), followed or not.
    public struct ReceiverStatus: Codable, Sendable, Equatable {
        /// gpsd's device path.
        public var path: String
        /// Whether the tracker follows this one (one at most).
        public var followed: Bool
        /// Its last fix mode (gpsd's: 1 no fix, 2, 3).
        public var mode: Int
        /// Its last error estimate, metres; null when it gives none.
        public var eph: Double?
        /// The time of its last fix with a position; null before one.
        public var lastFix: String?
        /// Its fixes the tracker did not follow.
        public var ignored: Int

        public init(path: String, followed: Bool, mode: Int, eph: Double?, lastFix: String?, ignored: Int) {
            self.path = path
            self.followed = followed
            self.mode = mode
            self.eph = eph
            self.lastFix = lastFix
            self.ignored = ignored
        }

        enum CodingKeys: String, CodingKey {
            case path, followed, mode, eph
            case lastFix = "last_fix"
            case ignored
        }
    }
}
