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

    /// Queues an OwnTracks message. Locations go when the outbox is full; transitions never.
    public func enqueue(kind: String, topic: String, payload: String, qos: Int32) {
        lock.withLock { _ in
            store(kind: kind, topic: topic, payload: payload, qos: qos)
            let excess = waiting() - config.outboxMax
            if excess > 0 { dropLocations(excess) }
            pump()
        }
    }

    /// Writes a message to the outbox table, after whatever waits in memory; what the table
    /// cannot take waits in memory, in order. Call with the lock held.
    func store(kind: String, topic: String, payload: String, qos: Int32) {
        flushUnsaved()
        if unsaved.isEmpty {
            do throws(SQLiteDatabase.Failure) {
                guard let outbox else { throw SQLiteDatabase.Failure(code: 14, message: "no outbox database") }
                _ = try outbox.query(
                    "INSERT INTO outbox (kind, topic, payload, qos, queued) VALUES (?, ?, ?, ?, ?)",
                    [.text(kind), .text(topic), .text(payload), .int(Int64(qos)), .real(Double(time(nil)))])
                outboxWritten()
                return
            } catch {
                outboxDegraded(error.message)
            }
        }
        unsaved.append((nextUnsavedID, kind, topic, payload, qos, Double(time(nil))))
        nextUnsavedID -= 1
    }

    /// A failed outbox write is a degraded spell like the store's: said once, at err, with
    /// the reason; `status` shows it until the messages waiting in memory are in the table.
    /// Call with the lock held.
    func outboxDegraded(_ reason: String) {
        if outboxFailure == nil {
            journal.log(
                LogEntry(
                    event: .mqttOutboxDegraded, priority: .err,
                    message: "MQTT outbox cannot be written, messages wait in memory: \(reason)",
                    fields: [(.reason, reason)]))
        }
        outboxFailure = reason
    }

    /// Moves messages waiting in memory into the table, oldest first, and deletes acknowledged
    /// rows whose deletion failed before. Call with the lock held.
    func flushUnsaved() {
        guard let outbox else { return }
        for id in acked where (try? outbox.query("DELETE FROM outbox WHERE id = ?", [.int(id)])) != nil {
            acked.remove(id)
        }
        var moved = false
        while let m = unsaved.first {
            guard
                let rows = try? outbox.query(
                    "INSERT INTO outbox (kind, topic, payload, qos, queued) VALUES (?, ?, ?, ?, ?) RETURNING id",
                    [.text(m.kind), .text(m.topic), .text(m.payload), .int(Int64(m.qos)), .real(m.queued)]),
                let row = rows.first?.first?.int
            else { return }
            unsaved.removeFirst()
            moved = true
            if let mid = inflight.first(where: { $0.value.row == m.id })?.key { inflight[mid]?.row = row }
        }
        if moved { outboxWritten() }
    }

    /// The outbox table took a write with nothing left waiting in memory: a degraded spell
    /// ends. Call with the lock held.
    func outboxWritten() {
        guard let reason = outboxFailure, unsaved.isEmpty else { return }
        outboxFailure = nil
        journal.log(
            LogEntry(
                event: .mqttOutboxRecovered, priority: .info,
                message: "MQTT outbox written again; the messages that waited in memory are in it",
                fields: [(.reason, reason)]))
    }

    /// When the oldest waiting message was queued (Unix time): the table's, else memory's.
    /// Call with the lock held.
    func oldestQueued() -> Double? {
        let acks = acked.isEmpty ? "" : " WHERE id NOT IN (\(acked.map(String.init).joined(separator: ",")))"
        let table = (try? outbox?.query("SELECT min(queued) FROM outbox" + acks))??.first?.first?.double
        return table ?? unsaved.first?.queued
    }

    /// The messages still waiting in memory for the outbox table, by kind (named at the stop).
    public var unsavedKinds: [String: Int] {
        lock.withLock { _ in Dictionary(grouping: unsaved, by: \.kind).mapValues(\.count) }
    }

    /// Drops the oldest `excess` location messages that are not in flight. Call with the lock held.
    func dropLocations(_ excess: Int) {
        let keep = Set(inflight.values.map(\.row)).union(acked)
        var left = excess
        if let outbox {
            let victims =
                ((try? outbox.query(
                    "SELECT id FROM outbox WHERE kind = 'location' ORDER BY id LIMIT ?",
                    [.int(Int64(excess + keep.count))])) ?? [])
                .compactMap { $0.first?.int }.filter { !keep.contains($0) }.prefix(excess)
            for id in victims where (try? outbox.query("DELETE FROM outbox WHERE id = ?", [.int(id)])) != nil {
                left -= 1
            }
        }
        while left > 0, let i = unsaved.firstIndex(where: { $0.kind == "location" && !keep.contains($0.id) }) {
            unsaved.remove(at: i)
            left -= 1
        }
    }

    /// Hands each message published to `<base>/cmd` (OwnTracks commands) to `handler`, on
    /// libmosquitto's thread.
    public func setCommandHandler(_ handler: @escaping @Sendable ([UInt8]) -> Void) {
        lock.withLock { _ in commandHandler = handler }
    }

    func onCommand(_ payload: [UInt8]) {
        guard let plain = opened(payload) else { return }
        let handler = lock.withLock { _ in commandHandler }
        handler?(plain)
    }

    /// The waypoints message (circular fences), sent on every connect and now if connected.
    public func setWaypoints(_ payload: String) {
        let now = lock.withLock { _ in
            waypoints = payload
            return connected
        }
        if now { enqueue(kind: "waypoints", topic: baseTopic + "/waypoints", payload: payload, qos: 1) }
    }

    /// Publishes waiting messages in order (the table's, then memory's), at most 20 in flight.
    /// Call with the lock held.
    func pump() {
        guard connected, let m = mosq else { return }
        let busy = Set(inflight.values.map(\.row)).union(acked)
        guard inflight.count < 20 else { return }
        var candidates: [(id: Int64, topic: String, payload: String, qos: Int32)] = []
        if let outbox {
            let rows =
                (try? outbox.query(
                    "SELECT id, topic, payload, qos FROM outbox ORDER BY id LIMIT ?",
                    [.int(Int64(20 - inflight.count + busy.count))])) ?? []
            candidates = rows.compactMap { r in
                r[0].int.map { ($0, r[1].string ?? baseTopic, r[2].string ?? "", Int32(r[3].int ?? 0)) }
            }
        }
        candidates += unsaved.map { ($0.id, $0.topic, $0.payload, $0.qos) }
        for c in candidates where !busy.contains(c.id) {
            guard inflight.count < 20 else { return }
            // Encrypted as it leaves (a fresh nonce each time): the outbox keeps plaintext.
            let payload = Array((crypto?.seal(Array(c.payload.utf8)) ?? c.payload).utf8)
            var mid: Int32 = 0
            let rc = dl_mosquitto_publish(m, &mid, c.topic, Int32(payload.count), payload, c.qos, false)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { return }
            inflight[mid] = (c.id, c.qos)
        }
    }
}
