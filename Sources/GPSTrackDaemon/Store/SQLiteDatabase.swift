import CSQLite

/// A thin wrapper over one SQLite connection: statements with bound values, rows as arrays.
/// Shared by the store, the step log and the outboxes (`StateDatabase`): a statement, and a
/// transaction whole, hold the connection's own recursive mutex, so another thread's statement
/// never lands inside someone else's transaction (and is never rolled back with it).
// Sendable: SQLite's serialized mode locks each call, and `locked` holds the connection's mutex.
final class SQLiteDatabase: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { message }
        /// The file is not a database or is damaged.
        var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
        /// The disk (or the file system's quota) is full.
        var isFull: Bool { code & 0xff == SQLITE_FULL }
    }

    /// The write-ahead log's bound on every connection (issue 30): a checkpoint once the log
    /// holds this many pages (SQLite's default, 1,000 pages, lets it grow to about 4 MiB first)...
    static let walPages = 16
    /// ...and the log file cut back to this many bytes when it starts over (SQLite's default
    /// keeps its largest size). gpstrackd(8), STORAGE, gives the reasons and the cost.
    static let journalSizeLimit = 128 * 1024

    /// A value to bind or read.
    enum Value: Equatable {
        case null
        case int(Int64)
        case real(Double)
        case text(String)

        var double: Double? {
            switch self {
            case .real(let d): d
            case .int(let i): Double(i)
            default: nil
            }
        }
        var int: Int64? {
            if case .int(let i) = self { return i }
            // A real beyond Int64 (or NaN) in a damaged file is no integer, not a trap.
            return double.flatMap { Int64(checking: $0, rounding: .towardZero) }
        }
        var string: String? {
            if case .text(let s) = self { return s }
            return nil
        }
    }

    let handle: OpaquePointer
    /// Prepared statements by their text, kept for the connection's life: the store's few
    /// statements are parsed once, not at every commit (their parsing was a twentieth of the
    /// live daemon's CPU). Used only holding the connection's mutex (`query`); SQLite prepares
    /// one again by itself when the schema changes.
    private var prepared: [String: OpaquePointer] = [:]
    /// The most statements kept; one beyond them is prepared and finalized each time.
    static let maxPrepared = 64

    init(path: String) throws(Failure) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close(db) }
            throw Failure(code: rc, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 2000)
    }

    /// Runs `body` holding the connection's mutex (recursive: statements inside take it again),
    /// so that what it reads (`changes`) and writes is no other thread's.
    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let mutex = sqlite3_db_mutex(handle)
        sqlite3_mutex_enter(mutex)
        defer { sqlite3_mutex_leave(mutex) }
        return try body()
    }

    /// Sets the write-ahead log's bound (`wal_autocheckpoint` in pages, `journal_size_limit`
    /// in bytes) for this connection.
    func boundWAL(pages: Int = walPages, limit: Int = journalSizeLimit) throws(Failure) {
        try query("PRAGMA wal_autocheckpoint=\(pages)")
        try query("PRAGMA journal_size_limit=\(limit)")
    }

    deinit {
        for stmt in prepared.values { sqlite3_finalize(stmt) }
        sqlite3_close_v2(handle)
    }

    private func failure(_ rc: Int32) -> Failure {
        Failure(code: rc, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    func query(_ sql: String, _ values: [Value] = []) throws(Failure) -> [[Value]] {
        try locked { () throws(Failure) in try run(sql, values) }
    }

    private func run(_ sql: String, _ values: [Value]) throws(Failure) -> [[Value]] {
        let stmt: OpaquePointer
        let kept: Bool
        if let cached = prepared[sql] {
            stmt = cached
            kept = true
        } else {
            var fresh: OpaquePointer?
            let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &fresh, nil)
            guard rc == SQLITE_OK, let fresh else { throw failure(rc) }
            stmt = fresh
            kept = prepared.count < Self.maxPrepared
            if kept { prepared[sql] = fresh }
        }
        defer {
            if kept {
                // Ready for the next use, holding no lock and no value of this one.
                sqlite3_reset(stmt)
                sqlite3_clear_bindings(stmt)
            } else {
                sqlite3_finalize(stmt)
            }
        }
        var rc = SQLITE_OK
        for (i, v) in values.enumerated() {
            let idx = Int32(i + 1)
            switch v {
            case .null: rc = sqlite3_bind_null(stmt, idx)
            case .int(let n): rc = sqlite3_bind_int64(stmt, idx, n)
            case .real(let d): rc = d.isFinite ? sqlite3_bind_double(stmt, idx, d) : sqlite3_bind_null(stmt, idx)
            case .text(let s): rc = gpstrack_bind_text(stmt, idx, s)
            }
            guard rc == SQLITE_OK else { throw failure(rc) }
        }
        var rows: [[Value]] = []
        while true {
            rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw failure(rc) }
            var row: [Value] = []
            for c in 0..<sqlite3_column_count(stmt) {
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_INTEGER: row.append(.int(sqlite3_column_int64(stmt, c)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(stmt, c)))
                case SQLITE_TEXT: row.append(.text(String(cString: sqlite3_column_text(stmt, c))))
                default: row.append(.null)
                }
            }
            rows.append(row)
        }
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in one transaction; any failure rolls it back.
    func transaction(_ body: () throws(Failure) -> Void) throws(Failure) {
        try locked { () throws(Failure) in
            try query("BEGIN IMMEDIATE")
            do throws(Failure) {
                try body()
                try query("COMMIT")
            } catch {
                _ = try? query("ROLLBACK")
                throw error
            }
        }
    }
}
