import CMosquitto
import GPSTrackCore
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The publisher's messages: the outbox table, what waits in memory when it cannot be written,
/// and the pump that hands them to libmosquitto in order.
extension MQTTPublisher {
    // MARK: messages

    /// Queues an OwnTracks message on the one outbox (`Outbox`, the queue `mqtt`): positions go
    /// when it is full, nothing else does.
    public func enqueue(kind: OutboxKind, topic: String, payload: String, qos: Int32) {
        guarded.withLock { s in
            tell(outbox.store(kind, payload: payload, topic: topic, qos: qos))
            pump(&s)
        }
    }

    /// A degraded spell of the outbox's table is said once, at err, with the reason, and its
    /// end; `status` shows it until the messages waiting in memory are in the table.
    func tell(_ spell: Outbox.Spell) {
        switch spell {
        case .unchanged: break
        case .degraded(let reason):
            journal.log(
                LogEntry(
                    event: .mqttOutboxDegraded, priority: .err,
                    message: "MQTT outbox cannot be written, messages wait in memory: \(reason)",
                    fields: [(.reason, reason)]))
        case .recovered(let reason):
            journal.log(
                LogEntry(
                    event: .mqttOutboxRecovered, priority: .info,
                    message: "MQTT outbox written again; the messages that waited in memory are in it",
                    fields: [(.reason, reason)]))
        }
    }

    /// The messages still waiting in memory for the outbox table, by kind (named at the stop).
    public var unsavedKinds: [String: Int] { outbox.unsavedKinds }

    /// Hands each message published to `<base>/cmd` (OwnTracks commands) to `handler`, on
    /// libmosquitto's thread.
    func setCommandHandler(_ handler: @escaping @Sendable (InboundCommand) -> Void) {
        guarded.withLock { $0.commandHandler = handler }
    }

    /// A message from the broker: OwnTracks' `<base>/cmd` is a command (empty or too long,
    /// nothing); Home Assistant's topics go to its handler whatever they hold (`payload` nil:
    /// longer than `maxCommandBytes`, `length` bytes).
    func onMessage(topic: String, payload: [UInt8]?, length: Int) {
        switch role {
        case .ownTracks:
            guard let payload, !payload.isEmpty, let command = opened(payload) else { return }
            guarded.withLock { $0.commandHandler }?(command)
        case .homeAssistant:
            guarded.withLock { $0.messageHandler }?(topic, payload, length)
        }
    }

    /// Home Assistant's connection: the topics to subscribe on each connect, and what to do
    /// once connected and with each message (on libmosquitto's thread, outside the lock).
    func setHandlers(
        subscriptions: [String], connected: @escaping @Sendable () -> Void,
        message: @escaping @Sendable (_ topic: String, _ payload: [UInt8]?, _ length: Int) -> Void
    ) {
        guarded.withLock { s in
            s.subscriptions = subscriptions
            s.connectHandler = connected
            s.messageHandler = message
        }
    }

    /// The waypoints message (circular fences), sent on every connect and now if connected.
    public func setWaypoints(_ payload: String) {
        let now = guarded.withLock { s in
            s.waypoints = payload
            return s.connected
        }
        if now { enqueue(kind: .waypoints, topic: baseTopic + "/waypoints", payload: payload, qos: 1) }
    }

    /// Publishes waiting messages in order (the outbox's), at most 20 in flight.
    func pump(_ s: inout State) {
        guard s.connected, let m = s.mosq else { return }
        let batch = outbox.next(20 - s.inflight.count)
        for (i, c) in batch.enumerated() {
            // Encrypted as it leaves (a fresh nonce each time): the outbox keeps plaintext.
            let payload = Array((crypto?.seal(Array(c.payload.utf8)) ?? c.payload).utf8)
            var mid: Int32 = 0
            let rc = dl_mosquitto_publish(
                m, &mid, c.topic ?? baseTopic, Int32(payload.count), payload, c.qos, c.kind.retained)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                // Not handed over: this and the rest are the outbox's again, in order, for the
                // next pump.
                outbox.release(batch[i...].map(\.id))
                return
            }
            s.inflight[mid] = (c.id, c.qos)
        }
    }
}
