import Foundation
import Testing

@testable import GPSTrackDaemon

/// The one state database (issue 37): the store, the step log and the outboxes share one
/// connection, so another thread's statement must never land inside someone's transaction,
/// where a rollback (a full disk, a damaged page) would take it along. A real SQLite file.
@Suite struct StateDatabaseTests {
    /// A transaction that rolls back leaves an outbox insert made meanwhile on another thread.
    @Test func anotherThreadsInsertIsNotRolledBackWithATransaction() throws {
        let dir = NSTemporaryDirectory() + "state-db-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = StateDatabase(path: dir + "/gpstrackd.db")
        let db = try file.open()
        #expect(file.connection === db, "one connection, handed to everyone")
        let inserted = DispatchSemaphore(value: 0)
        let outbox = Thread {
            _ = try? db.query(
                "INSERT INTO uplink_outbox (uplink, kind, payload, queued) VALUES ('traccar', 'alarm', 'x', 1)")
            inserted.signal()
        }
        var finishedInside = false
        #expect(throws: SQLiteDatabase.Failure.self) {
            try db.transaction { () throws(SQLiteDatabase.Failure) in
                try db.query("INSERT INTO events (time, event, json) VALUES (1, 'enter', '{}')")
                outbox.start()
                // The insert waits for this transaction's end; without the lock it would finish
                // inside it. Waiting on it (a referee of 2 s) gives it every chance to.
                finishedInside = inserted.wait(timeout: .now() + 2) == .success
                throw SQLiteDatabase.Failure(code: 13, message: "a full disk, as the store meets it")
            }
        }
        #expect(!finishedInside, "the outbox's insert waited for the transaction's end")
        if !finishedInside { #expect(inserted.wait(timeout: .now() + 20) == .success, "and then ran") }
        #expect(try db.query("SELECT count(*) FROM events").first?.first?.int == 0, "the transaction rolled back")
        #expect(
            try db.query("SELECT count(*) FROM uplink_outbox").first?.first?.int == 1,
            "the other thread's alarm stays in the outbox")
    }

    /// Pragmas are Schema's: every connection is in WAL, synchronous=FULL, with the log bounded.
    @Test func theConnectionCarriesSchemasPragmas() throws {
        let dir = NSTemporaryDirectory() + "state-db-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = try #require(StateDatabase(path: dir + "/gpstrackd.db").connection)
        #expect(try db.query("PRAGMA journal_mode").first?.first?.string == "wal")
        #expect(try db.query("PRAGMA synchronous").first?.first?.int == 2)
        #expect(try db.query("PRAGMA wal_autocheckpoint").first?.first?.int == 16)
        #expect(try db.query("PRAGMA auto_vacuum").first?.first?.int == 2)
        #expect(try db.query("PRAGMA user_version").first?.first?.int == Int64(Schema.current))
        // A box's page cache: 512 KiB (gpstrackd(8), STORAGE), not SQLite's 2 MiB.
        #expect(try db.query("PRAGMA cache_size").first?.first?.int == -512)
    }

    /// A statement kept prepared answers each use with that use's values alone: reset, and its
    /// bindings cleared, between uses.
    @Test func aKeptStatementForgetsItsLastValues() throws {
        let dir = NSTemporaryDirectory() + "state-db-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = try #require(StateDatabase(path: dir + "/gpstrackd.db").connection)
        #expect(try db.query("SELECT ?", [.int(1)]) == [[.int(1)]])
        #expect(try db.query("SELECT ?", [.text("two")]) == [[.text("two")]])
        #expect(try db.query("SELECT ?") == [[.null]], "no value bound: the last one is gone")
    }
}
