import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Synchronization

/// What arrives on HA's topics, on libmosquitto's thread: HA's birth and last will, the state
/// topic (our own echo, or somebody else's message), and this node's announcements (retained,
/// read back on each connect).
extension HADiscovery {
    func take(topic: String, payload: [UInt8]?, length: Int) {
        if topic == topics.status {
            switch payload.flatMap({ String(validating: $0, as: UTF8.self) }) {
            case "online":
                guarded.withLock { $0.births += 1 }
                announce()
            case "offline": break
            default: bad(topic, length, "neither online nor offline")
            }
        } else if topic == topics.state {
            guard let payload, length <= Self.maxMessageBytes, let text = String(validating: payload, as: UTF8.self)
            else {
                bad(topic, length, "longer than \(Self.maxMessageBytes) bytes or not UTF-8")
                return republish()
            }
            let (ours, sent) = guarded.withLock { s in (s.recent.contains(text), !s.recent.isEmpty) }
            // Before our first state, what is retained there is the last run's: left alone.
            guard !ours, sent else { return }
            let json: JSONValue? = try? JSONValue.parse(Array(text.utf8))
            if case .object = json {
                bad(topic, length, "a state gpstrackd did not send")
            } else {
                bad(topic, length, "not a JSON object")
            }
            // Ours again, over whatever was put there.
            republish()
        } else if let (component, object) = topics.announced(topic) {
            // An empty payload is a removal (ours, echoed); a config of an entity not in force
            // is removed.
            guard length > 0 else { return }
            let known = guarded.withLock { s in
                !s.entitiesSet || s.entities.contains { $0.component == component && $0.object == object }
            }
            guard !known else { return }
            let removing = guarded.withLock { s -> Bool in
                guard s.removed < Self.maxRemovals else { return false }
                s.removed += 1
                return true
            }
            if removing { publisher.enqueue(kind: .haConfig, topic: topic, payload: "", qos: 1) }
        }
    }

    /// The current state queued again (after a foreign message on the state topic).
    private func republish() {
        let now = clock()
        let payload = guarded.withLock { s in encodeState(&s, now: now) }
        if let payload { publisher.enqueue(kind: .haState, topic: topics.state, payload: payload, qos: 1) }
    }

    /// A message that changes nothing: counted, and said at most once a minute (with how many).
    private func bad(_ topic: String, _ length: Int, _ why: String) {
        let now = clock()
        let said = guarded.withLock { s -> Int? in
            s.bad += 1
            s.badSinceLogged += 1
            guard now - s.lastBadLogged >= 60 else { return nil }
            defer {
                s.lastBadLogged = now
                s.badSinceLogged = 0
            }
            return s.badSinceLogged
        }
        guard let said else { return }
        journal.log(
            LogEntry(
                event: .haBadMessage, priority: .warning,
                message:
                    "Home Assistant: ignored a message on \(MQTTCommand.printable(topic)) (\(length) bytes): \(why)"
                    + (said > 1 ? " (\(said) since the last entry)" : ""),
                fields: [(.reason, why), (.skipped, String(said))]))
    }

    /// `status`'s `ha`.
    var status: HAStatus {
        let connected = publisher.state.connected
        let outbox = publisher.state.outbox
        return guarded.withLock { s in
            var h = HAStatus()
            h.connected = connected
            h.node = topics.node
            h.entities = s.entities.count
            h.outbox = outbox
            h.births = s.births
            h.badMessages = s.bad
            h.removed = s.removed
            return h
        }
    }
}
