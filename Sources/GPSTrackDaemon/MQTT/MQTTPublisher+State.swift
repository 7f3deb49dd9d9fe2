import Synchronization

extension MQTTPublisher {
    /// What `guarded` holds: everything libmosquitto's thread (its callbacks) and the
    /// tracker's both touch, changed only under the lock.
    struct State {
        var mosq: OpaquePointer?
        var connected = false
        var inOutage = false
        var everConnected = false
        /// Messages in flight by libmosquitto's message id: their outbox ids (negative while they
        /// wait in memory).
        var inflight: [Int32: (row: Int64, qos: Int32)] = [:]
        var waypoints: String?
        /// Command refusals logged this spell (one entry a kind).
        var refusalsLogged: Set<String> = []
        /// When the broker last acknowledged a message (Unix time), for `status` and the metrics.
        var lastSuccess: Double?
        /// TLS problems already logged in this outage (one entry per problem, not per retry).
        var tlsProblems: Set<String> = []
        /// Why TLS, asked for, could not be set up (`mosquitto_tls_set` failed): while set, the
        /// client does not connect at all, and `status` says why.
        var tlsFailure: String?
        /// The network thread: libmosquitto's `loop_forever` ends for good on a failed TLS
        /// handshake, so this loop reconnects itself.
        var thread: NativeThread?
        /// The waits between connection attempts; reset by a CONNACK.
        var retry = ReconnectBackoff.transport
        var commandHandler: (@Sendable (InboundCommand) -> Void)?
        /// Home Assistant's connection: its topics subscribed on each connect, what it does
        /// once connected (its announcements) and with each message.
        var subscriptions: [String] = []
        var connectHandler: (@Sendable () -> Void)?
        var messageHandler: (@Sendable (_ topic: String, _ payload: [UInt8]?, _ length: Int) -> Void)?
    }

    /// What a connection is for.
    public enum Role: Sendable, Equatable {
        /// OwnTracks: its will on the base topic, `<base>/cmd` subscribed, the waypoints sent on
        /// each connect, encrypted with `mqtt_secret_file`.
        case ownTracks
        /// Home Assistant's discovery, under `base` (`gpstrackd/<node>`): its will on
        /// `<base>/availability`, its own subscriptions, never encrypted, its queue `ha`.
        case homeAssistant(base: String)
    }

    /// The outbox queue of Home Assistant's connection, and its limit (its states go first).
    static let haQueue = "ha"
    static let haOutboxMax = 1_000
    static let online = "online"
    static let offline = "offline"

    /// HA's availability topic: "online" retained on each connect, "offline" as the will and at
    /// a clean stop.
    var availabilityTopic: String { baseTopic + "/availability" }
}
