import Synchronization

/// The state database (`<state_dir>/gpstrackd.db`), opened once: the store, the step log and
/// every outbox use its one connection (`SQLiteDatabase` keeps their statements and
/// transactions apart). The pragmas and migrations are `Schema.prepare`'s alone. The store owns
/// the file's troubles: it opens it first, says why it cannot, and moves a damaged one aside
/// (`close`, then `open` again); the others take the connection as it is, and keep what they
/// cannot write in memory while there is none.
public final class StateDatabase: Sendable {
    let path: String
    private struct Current {
        var connection: SQLiteDatabase?
        /// When a lazy open last failed (monotonic seconds): tried again at most once a second.
        var failedAt = -Double.infinity
    }
    private let current = Mutex(Current())

    /// Names the file; nothing is opened until someone asks.
    public init(path: String) { self.path = path }

    /// The connection, opened on first use; nil while the file cannot be opened (the store
    /// says why; an outbox keeps its messages in memory meanwhile).
    var connection: SQLiteDatabase? {
        current.withLock { c in
            if c.connection == nil, MonotonicClock.now() - c.failedAt >= 1 {
                c.connection = try? Self.connect(path)
                if c.connection == nil { c.failedAt = MonotonicClock.now() }
            }
            return c.connection
        }
    }

    /// The connection as it stands, never opening: nil when closed.
    var opened: SQLiteDatabase? { current.withLock { $0.connection } }

    /// Opens the file (or returns the connection already open), saying why it cannot: the
    /// store's way in.
    @discardableResult
    func open() throws(SQLiteDatabase.Failure) -> SQLiteDatabase {
        try current.withLock { c throws(SQLiteDatabase.Failure) in
            if let db = c.connection { return db }
            do throws(SQLiteDatabase.Failure) {
                let db = try Self.connect(path)
                c.connection = db
                return db
            } catch {
                c.failedAt = MonotonicClock.now()
                throw error
            }
        }
    }

    /// Lets the connection go (before a damaged file is moved aside); the next use opens anew.
    func close() {
        current.withLock { $0.connection = nil }
    }

    /// The one place a connection to the state database is made.
    private static func connect(_ path: String) throws(SQLiteDatabase.Failure) -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: path)
        try Schema.prepare(db)
        return db
    }
}
