import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Synchronization

/// Home Assistant's MQTT discovery over the publisher's second connection (`role`
/// `.homeAssistant`): the entities' retained configs, sent on each connect and again when HA's
/// birth message (`<prefix>/status` `online`) says HA started; the state topic, on a change of a
/// yes/no entity at once, otherwise at most every `ha_min_interval_s`; the announcements of
/// entities the configuration no longer has, read back from the broker and removed.
/// Every message goes through the publisher's outbox (queue `ha`). Whatever else arrives on
/// HA's topics (not JSON, too long, not ours) changes nothing, and is counted.
final class HADiscovery: Sendable {
    let publisher: MQTTPublisher
    let topics: HATopics
    let minIntervalS: Double
    let journal: Journal
    /// The clock the state's pace and fix age are read on (the monotonic clock; tests give theirs).
    let clock: @Sendable () -> Double

    struct State {
        var entities: [HAEntity] = []
        var state: HAState?
        var fixReceivedAt: Double?
        var lastSentAt = -Double.infinity
        var lastDiscrete: String?
        /// The zone last queued.
        var zone: String?
        /// The state payloads last queued: the broker echoes them back on the state topic.
        var recent: [String] = []
        /// Whether the entities in force were set: until then no announcement is stale.
        var entitiesSet = false
        var births = 0
        var bad = 0
        var removed = 0
        var lastBadLogged = -Double.infinity
        var badSinceLogged = 0
    }
    let guarded = Mutex(State())

    /// How many sent states are remembered as our own, and the longest message read on HA's
    /// topics (a config is about 1 KiB; HA's status a word).
    static let recentCount = 8
    static let maxMessageBytes = 64 << 10
    /// Removals of stale announcements per connection at most (a flood on our node's topics).
    static let maxRemovals = 1_000

    init(
        publisher: MQTTPublisher, topics: HATopics, minIntervalS: Double, journal: Journal,
        clock: @escaping @Sendable () -> Double = MonotonicClock.now
    ) {
        self.publisher = publisher
        self.topics = topics
        self.minIntervalS = minIntervalS
        self.journal = journal
        self.clock = clock
    }

    /// Subscribes HA's topics and starts the connection.
    func start() {
        publisher.setHandlers(
            subscriptions: [topics.status, topics.state, topics.announcements],
            connected: { [self] in announce() },
            message: { [self] topic, payload, length in take(topic: topic, payload: payload, length: length) })
        publisher.start()
    }

    /// The entities in force: those gone get an empty retained config (HA removes them), new
    /// and changed ones their config.
    func setEntities(_ list: [HAEntity]) {
        let old = guarded.withLock { s in
            defer {
                s.entities = list
                s.entitiesSet = true
            }
            return s.entities
        }
        let now = Set(list.map { $0.topic(topics) })
        for gone in old where !now.contains(gone.topic(topics)) {
            publisher.enqueue(kind: .haConfig, topic: gone.topic(topics), payload: "", qos: 1)
        }
        for entity in list where !old.contains(entity) { send(entity) }
    }

    /// Every config, then the state (after a connect, or HA's birth).
    func announce() {
        for entity in guarded.withLock({ $0.entities }) { send(entity) }
        let now = clock()
        let (payload, zone) = guarded.withLock { s in
            (s.state == nil ? nil : encodeState(&s, now: now), s.state?.zone)
        }
        if let zone { publisher.enqueue(kind: .haZone, topic: topics.zone, payload: zone, qos: 1) }
        if let payload { publisher.enqueue(kind: .haState, topic: topics.state, payload: payload, qos: 1) }
    }

    private func send(_ entity: HAEntity) {
        publisher.enqueue(
            kind: .haConfig, topic: entity.topic(topics), payload: ReplyEncoder.encode(entity.config), qos: 1)
    }

    /// A step's state: sent at once when a yes/no entity changed, else when `minIntervalS` has
    /// passed since the last; `fixReceived` when the step accepted a fix.
    func offer(_ state: HAState, fixReceived: Bool) {
        let now = clock()
        let (payload, zone) = guarded.withLock { s -> (String?, String?) in
            s.state = state
            if fixReceived { s.fixReceivedAt = now }
            let zone = state.zone == s.zone ? nil : state.zone
            s.zone = state.zone
            guard state.discrete != s.lastDiscrete || now - s.lastSentAt >= minIntervalS else { return (nil, zone) }
            return (encodeState(&s, now: now), zone)
        }
        if let zone { publisher.enqueue(kind: .haZone, topic: topics.zone, payload: zone, qos: 1) }
        if let payload { publisher.enqueue(kind: .haState, topic: topics.state, payload: payload, qos: 1) }
    }

    /// The clock's tick (each second): the state again once `minIntervalS` passed, if it says
    /// something new (the fix's age goes on while no fix comes).
    func tick() {
        let now = clock()
        let payload = guarded.withLock { s -> String? in
            guard now - s.lastSentAt >= minIntervalS, let payload = text(s, now: now), payload != s.recent.last
            else { return nil }
            // Nothing new (no fix's age to tell): nothing sent, nothing remembered.
            return sent(&s, payload, now: now)
        }
        if let payload { publisher.enqueue(kind: .haState, topic: topics.state, payload: payload, qos: 1) }
    }

    /// The state's text now (its fix's age as of `now`); nil before the first state.
    func text(_ s: State, now: Double) -> String? {
        guard var state = s.state else { return nil }
        state.fixAgeS = s.fixReceivedAt.map { max(0, now - $0).rounded(decimals: 0) }
        return ReplyEncoder.encode(state)
    }

    /// The state's text, remembered as sent now.
    func encodeState(_ s: inout State, now: Double) -> String? {
        guard let payload = text(s, now: now) else { return nil }
        return sent(&s, payload, now: now)
    }

    private func sent(_ s: inout State, _ payload: String, now: Double) -> String {
        s.lastSentAt = now
        s.lastDiscrete = s.state?.discrete
        s.recent = Array((s.recent + [payload]).suffix(Self.recentCount))
        return payload
    }
}

extension HADiscovery {
    /// The discovery of `config` (`ha_discovery = on`) on its own connection to the broker.
    static func make(_ config: Configuration, file: StateDatabase, journal: Journal, configPath: String?)
        throws(ConfigError) -> HADiscovery
    {
        let node = config.ha.nodeID ?? HADiscoveryConfig.safeNodeID(OwnTracks.hostDevice())
        let topics = HATopics(prefix: config.ha.prefix, node: node)
        let publisher = try MQTTPublisher(
            config: config.mqtt, file: file, journal: journal, configFile: configPath ?? "configuration",
            origins: config.origins, role: .homeAssistant(base: topics.base))
        return HADiscovery(publisher: publisher, topics: topics, minIntervalS: config.ha.minIntervalS, journal: journal)
    }

    /// The sink that feeds it. The buttons publish on OwnTracks' command topic, so they exist
    /// only where a broker command can run: `mqtt_commands = on`, the action in
    /// `mqtt_command_allow`, and no `mqtt_secret_file` (HA cannot encrypt).
    /// `fences`: those in force at the start, so that the entities are known before the first
    /// connect (and the retained ones of fences gone are told apart).
    func sink(_ config: Configuration, ownTracks: MQTTPublisher?, fences: [Fence]?) -> HASink {
        var setup = HAEntityList.Setup(
            topics: topics, deviceName: config.ha.nodeID ?? OwnTracks.hostDevice(), version: Daemon.version)
        setup.ignition = config.inputs.sources[.ignition] != nil
        setup.power = config.inputs.sources[.power] != nil
        if let ownTracks, config.mqtt.commands, config.mqtt.secretFile == nil {
            setup.commandTopic = ownTracks.baseTopic + "/cmd"
            setup.buttons = HAEntityList.Button.allCases.filter { config.mqtt.commandAllow.contains($0.command.name) }
        }
        let sink = HASink(discovery: self, setup: setup, tripMode: config.tracker.tripMode)
        sink.fencesReplaced(fences)
        return sink
    }
}
