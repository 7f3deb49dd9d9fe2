import GPSTrackJSON

/// An uplink's name: `status`'s key, the metrics' `uplink` label, its outbox queue. A switch
/// over it is exhaustive, so a new uplink is named everywhere a name is read.
public enum UplinkName: String, CaseIterable, Sendable, Codable {
    case mqtt, traccar
    case owntracksHTTP = "owntracks_http"
    case webhook
}

extension StatusReply {
    /// Every uplink (`status`'s `uplinks`), each null when it is not configured.
    public struct UplinksStatus: Codable, Sendable, Equatable {
        public var mqtt: UplinkStatus?
        public var traccar: UplinkStatus?
        public var owntracksHTTP: UplinkStatus?
        public var webhook: UplinkStatus?
        public init() {}
        /// One uplink's status by its name.
        public subscript(_ name: UplinkName) -> UplinkStatus? {
            get {
                switch name {
                case .mqtt: mqtt
                case .traccar: traccar
                case .owntracksHTTP: owntracksHTTP
                case .webhook: webhook
                }
            }
            set {
                switch name {
                case .mqtt: mqtt = newValue
                case .traccar: traccar = newValue
                case .owntracksHTTP: owntracksHTTP = newValue
                case .webhook: webhook = newValue
                }
            }
        }
        enum CodingKeys: String, CodingKey {
            case mqtt, traccar
            case owntracksHTTP = "owntracks_http"
            case webhook
        }
    }

    /// One uplink: its queue and how its server last answered.
    public struct UplinkStatus: Codable, Sendable, Equatable {
        /// Whether the server answered the last request (MQTT: whether the broker is connected).
        public var connected = false
        /// Messages waiting to be sent.
        public var queued = 0
        /// Seconds the oldest waiting message has waited; null with none waiting.
        public var oldestAgeS: Double?
        /// When the server last confirmed a message; null before the first.
        public var lastSuccess: String?
        /// Why the last request failed (`HTTP 404: …`, `Connection refused`...); null before a failure.
        public var lastError: String?
        /// Locations dropped from the full outbox since the start (absent for MQTT).
        @Omitted public var dropped: Int?
        /// Backlog locations dropped for their age (`*_max_age_s`) since the start; absent
        /// without an age limit.
        @Omitted public var expired: Int?
        /// Fixes left out for their date (`uplink_max_clock_offset_s`) since the start (absent for MQTT).
        @Omitted public var skippedTimeOff: Int?
        public init() {}
        enum CodingKeys: String, CodingKey {
            case connected, queued
            case oldestAgeS = "oldest_age_s"
            case lastSuccess = "last_success"
            case lastError = "last_error"
            case dropped, expired
            case skippedTimeOff = "skipped_time_off"
        }
    }
}
