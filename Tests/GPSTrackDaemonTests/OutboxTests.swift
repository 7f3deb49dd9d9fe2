import Foundation
import Testing

@testable import GPSTrackDaemon

/// The one outbox (issue 37): every uplink's queue in one table of the state database, each in
/// its order; a message leaves only on its receiver's confirmation, is never handed out twice
/// while in flight, and only positions make room. A real SQLite file.
@Suite struct OutboxTests {
    static func file(_ name: String) throws -> (StateDatabase, String) {
        let dir = NSTemporaryDirectory() + "outbox-\(name)-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return (StateDatabase(path: dir + "/gpstrackd.db"), dir)
    }

    @Test func queuesShareTheTableAndKeepTheirOrderAndTheirMessagesUntilConfirmed() throws {
        let (file, dir) = try Self.file("order")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mqtt = Outbox(uplink: "mqtt", file: file, limit: 100)
        let traccar = Outbox(uplink: "traccar", file: file, limit: 100)
        for i in 0..<5 {
            mqtt.store(.location, payload: "m\(i)", topic: "owntracks/a/b", qos: 0)
            traccar.store(i == 2 ? .alarm : .location, payload: "t\(i)", fixTime: Double(i))
        }
        let first = mqtt.next(3)
        #expect(first.map(\.payload) == ["m0", "m1", "m2"] && first.allSatisfy { $0.qos == 0 })
        #expect(mqtt.next(3).map(\.payload) == ["m3", "m4"], "what is in flight is not handed again")
        #expect(mqtt.next(3).isEmpty)
        mqtt.remove(first[1])
        mqtt.release([first[0].id, first[2].id])
        #expect(mqtt.next(10).map(\.payload) == ["m0", "m2"], "released: sent again, in order")
        #expect(mqtt.waiting.count == 4, "only the confirmed one left")
        #expect(traccar.head()?.payload == "t0")
        #expect(traccar.head()?.payload == "t0", "unconfirmed, the head again")
        #expect(traccar.waiting.count == 5, "one queue's confirmations are not another's")
        // A restart: the queues read back from the file, in their order.
        let again = Outbox(uplink: "mqtt", file: StateDatabase(path: file.path), limit: 100)
        #expect(again.next(10).map(\.payload) == ["m0", "m2", "m3", "m4"])
    }

    @Test func onlyPositionsMakeRoomForTheLimitAndOnAFullDisk() throws {
        let (file, dir) = try Self.file("room")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let box = Outbox(uplink: "traccar", file: file, limit: 3)
        box.store(.location, payload: "a")
        box.store(.trip, payload: "b")
        box.store(.alarm, payload: "c")
        box.store(.location, payload: "d")
        box.store(.transition, payload: "e")
        // Five queued, three kept: both positions went, the oldest first; nothing else did.
        #expect(box.next(10).map(\.payload) == ["b", "c", "e"])
        #expect(box.waiting.dropped == 2)
        let mqtt = Outbox(uplink: "mqtt", file: file, limit: 100)
        for i in 0..<4 { mqtt.store(i == 1 ? .waypoints : .location, payload: "w\(i)") }
        let db = try #require(file.connection)
        #expect(Outbox.thin(db, batch: 10) == 3, "the store's thinning takes every queue's positions")
        #expect(mqtt.next(10).map(\.payload) == ["w1"])
    }
}
