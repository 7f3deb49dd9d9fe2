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
        guarded.withLock { s in
            store(&s, kind: kind, topic: topic, payload: payload, qos: qos)
            let excess = waiting(s) - config.outboxMax
            if excess > 0 { dropLocations(&s, excess) }
            pump(&s)
        }
    }

    /// Writes a message to the outbox table, after whatever waits in memory; what the table
    /// cannot take waits in memory, in order.
    func store(_ s: inout State, kind: String, topic: String, payload: String, qos: Int32) {
        flushUnsaved(&s)
        if s.unsaved.isEmpty {
            do throws(SQLiteDatabase.Failure) {
                guard let outbox = s.outbox else {
                    throw SQLiteDatabase.Failure(code: 14, message: "no outbox database")
                }
                _ = try outbox.query(
                    "INSERT INTO outbox (kind, topic, payload, qos, queued) VALUES (?, ?, ?, ?, ?)",
                    [.text(kind), .text(topic), .text(payload), .int(Int64(qos)), .real(Double(time(nil)))])
                outboxWritten(&s)
                return
            } catch {
                outboxDegraded(&s, error.message)
            }
        }
        s.unsaved.append((s.nextUnsavedID, kind, topic, payload, qos, Double(time(nil))))
        s.nextUnsavedID -= 1
    }

    /// A failed outbox write is a degraded spell like the store's: said once, at err, with
    /// the reason; `status` shows it until the messages waiting in memory are in the table.
    func outboxDegraded(_ s: inout State, _ reason: String) {
        if s.outboxFailure == nil {
            journal.log(
                LogEntry(
                    event: .mqttOutboxDegraded, priority: .err,
                    message: "MQTT outbox cannot be written, messages wait in memory: \(reason)",
                    fields: [(.reason, reason)]))
        }
        s.outboxFailure = reason
    }

    /// Moves messages waiting in memory into the table, oldest first, and deletes acknowledged
    /// rows whose deletion failed before.
    func flushUnsaved(_ s: inout State) {
        guard let outbox = s.outbox else { return }
        for id in s.acked where (try? outbox.query("DELETE FROM outbox WHERE id = ?", [.int(id)])) != nil {
            s.acked.remove(id)
        }
        var moved = false
        while let m = s.unsaved.first {
            guard
                let rows = try? outbox.query(
                    "INSERT INTO outbox (kind, topic, payload, qos, queued) VALUES (?, ?, ?, ?, ?) RETURNING id",
                    [.text(m.kind), .text(m.topic), .text(m.payload), .int(Int64(m.qos)), .real(m.queued)]),
                let row = rows.first?.first?.int
            else { return }
            s.unsaved.removeFirst()
            moved = true
            if let mid = s.inflight.first(where: { $0.value.row == m.id })?.key { s.inflight[mid]?.row = row }
        }
        if moved { outboxWritten(&s) }
    }

    /// The outbox table took a write with nothing left waiting in memory: a degraded spell
    /// ends.
    func outboxWritten(_ s: inout State) {
        guard let reason = s.outboxFailure, s.unsaved.isEmpty else { return }
        s.outboxFailure = nil
        journal.log(
            LogEntry(
                event: .mqttOutboxRecovered, priority: .info,
                message: "MQTT outbox written again; the messages that waited in memory are in it",
                fields: [(.reason, reason)]))
    }

    /// When the oldest waiting message was queued (Unix time): the table's, else memory's.
    func oldestQueued(_ s: State) -> Double? {
        let acks = s.acked.isEmpty ? "" : " AND id NOT IN (\(s.acked.map(String.init).joined(separator: ",")))"
        // A damaged row's queue time (1e300) is no age to show (`RowBounds`).
        let table =
            (try? s.outbox?.query("SELECT min(queued) FROM outbox WHERE \(RowBounds.valid("outbox"))" + acks))??
            .first?.first?.double
        return table ?? s.unsaved.first?.queued
    }

    /// The messages still waiting in memory for the outbox table, by kind (named at the stop).
    public var unsavedKinds: [String: Int] {
        guarded.withLock { s in Dictionary(grouping: s.unsaved, by: \.kind).mapValues(\.count) }
    }

    /// Drops the oldest `excess` location messages that are not in flight.
    func dropLocations(_ s: inout State, _ excess: Int) {
        let keep = Set(s.inflight.values.map(\.row)).union(s.acked)
        var left = excess
        if let outbox = s.outbox {
            let victims =
                ((try? outbox.query(
                    "SELECT id FROM outbox WHERE kind = 'location' ORDER BY id LIMIT ?",
                    [.int(Int64(excess + keep.count))])) ?? [])
                .compactMap { $0.first?.int }.filter { !keep.contains($0) }.prefix(excess)
            for id in victims where (try? outbox.query("DELETE FROM outbox WHERE id = ?", [.int(id)])) != nil {
                left -= 1
            }
        }
        while left > 0, let i = s.unsaved.firstIndex(where: { $0.kind == "location" && !keep.contains($0.id) }) {
            s.unsaved.remove(at: i)
            left -= 1
        }
    }

    /// Hands each message published to `<base>/cmd` (OwnTracks commands) to `handler`, on
    /// libmosquitto's thread.
    func setCommandHandler(_ handler: @escaping @Sendable (InboundCommand) -> Void) {
        guarded.withLock { $0.commandHandler = handler }
    }

    func onCommand(_ payload: [UInt8]) {
        guard let command = opened(payload) else { return }
        let handler = guarded.withLock { $0.commandHandler }
        handler?(command)
    }

    /// The waypoints message (circular fences), sent on every connect and now if connected.
    public func setWaypoints(_ payload: String) {
        let now = guarded.withLock { s in
            s.waypoints = payload
            return s.connected
        }
        if now { enqueue(kind: "waypoints", topic: baseTopic + "/waypoints", payload: payload, qos: 1) }
    }

    /// Publishes waiting messages in order (the table's, then memory's), at most 20 in flight.
    func pump(_ s: inout State) {
        guard s.connected, let m = s.mosq else { return }
        let busy = Set(s.inflight.values.map(\.row)).union(s.acked)
        guard s.inflight.count < 20 else { return }
        var candidates: [(id: Int64, topic: String, payload: String, qos: Int32)] = []
        if let outbox = s.outbox {
            let rows =
                (try? outbox.query(
                    "SELECT id, topic, payload, qos FROM outbox ORDER BY id LIMIT ?",
                    [.int(Int64(20 - s.inflight.count + busy.count))])) ?? []
            candidates = rows.compactMap { r in
                // A QoS no run writes (a damaged row's 99999999999 trapped as Int32) goes at least once.
                let qos = r[3].int.flatMap { (0...2).contains($0) ? Int32($0) : nil } ?? 1
                return r[0].int.map { ($0, r[1].string ?? baseTopic, r[2].string ?? "", qos) }
            }
        }
        candidates += s.unsaved.map { ($0.id, $0.topic, $0.payload, $0.qos) }
        for c in candidates where !busy.contains(c.id) {
            guard s.inflight.count < 20 else { return }
            // Encrypted as it leaves (a fresh nonce each time): the outbox keeps plaintext.
            let payload = Array((crypto?.seal(Array(c.payload.utf8)) ?? c.payload).utf8)
            var mid: Int32 = 0
            let rc = dl_mosquitto_publish(m, &mid, c.topic, Int32(payload.count), payload, c.qos, false)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { return }
            s.inflight[mid] = (c.id, c.qos)
        }
    }
}
