import CMosquitto
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// libmosquitto's callbacks, on its network thread: connected, disconnected, published.
extension MQTTPublisher {
    func onConnect(_ rc: Int32) {
        guard rc == 0 else {
            let reason =
                rc == 4 || rc == 5
                ? "the broker refused the login (bad user name or password) for \(config.user ?? "(none)")"
                : "the broker refused the connection: \(String(cString: dl_mosquitto_connack_string(rc)))"
            guarded.withLock { s in
                if !s.inOutage {
                    s.inOutage = true
                    journal.log(
                        LogEntry(
                            event: .mqttRefused, priority: .err,
                            message: "MQTT \(config.host ?? ""):\(config.port): \(reason)"))
                }
            }
            return
        }
        guarded.withLock { s in
            s.connected = true
            if s.inOutage || !s.everConnected {
                journal.log(
                    LogEntry(
                        event: .mqttConnected, priority: .info,
                        message: "MQTT connected to \(config.host ?? ""):\(config.port), publishing to \(baseTopic)"))
            }
            s.inOutage = false
            s.tlsProblems = []
            s.retry.reset()
            s.everConnected = true
            // QoS 0 messages in flight were lost with the connection; QoS 1 ones libmosquitto
            // sends again by itself.
            outbox.release(s.inflight.values.filter { $0.qos == 0 }.map(\.row))
            s.inflight = s.inflight.filter { $0.value.qos > 0 }
            if let m = s.mosq {
                switch role {
                case .ownTracks: _ = dl_mosquitto_subscribe(m, nil, baseTopic + "/cmd", 1)
                case .homeAssistant:
                    let online = Array(Self.online.utf8)
                    _ = dl_mosquitto_publish(m, nil, availabilityTopic, Int32(clamping: online.count), online, 1, true)
                    for topic in s.subscriptions { _ = dl_mosquitto_subscribe(m, nil, topic, 1) }
                }
            }
            if let waypoints = s.waypoints {
                tell(
                    outbox.store(
                        .waypoints, payload: waypoints, topic: baseTopic + "/waypoints", qos: 1, bounded: false))
            }
            pump(&s)
        }
        // Outside the lock: the handler queues its announcements through `enqueue`.
        guarded.withLock { $0.connectHandler }?()
    }

    func onDisconnect(_ rc: Int32) {
        guarded.withLock { s in
            s.connected = false
            if rc != 0 && !s.inOutage {
                s.inOutage = true
                journal.log(
                    LogEntry(
                        event: .mqttLost, priority: .warning,
                        message:
                            "MQTT broker \(config.host ?? ""):\(config.port) unreachable; messages wait in the outbox"))
            }
        }
    }

    func onPublish(_ mid: Int32) {
        guarded.withLock { s in
            guard let entry = s.inflight.removeValue(forKey: mid) else { return }
            s.lastSuccess = Double(time(nil))
            outbox.remove(id: entry.row)
            pump(&s)
        }
    }
}
