/// Every table of the state database and every change to them, in one place, under
/// `PRAGMA user_version`. The parts that keep rows there (the store, the step log, the outbox)
/// share the one connection `StateDatabase` opens, after `prepare` (its pragmas) and `migrate`.
/// Each version is one `BEGIN IMMEDIATE` transaction that reads the version again inside it, so
/// that two connections opening at once migrate once; an older file opens, keeps its rows and
/// gains the new tables and columns (NULL in the rows it had). A new version: a case in
/// `apply`, and `current` one higher.
enum Schema {
    /// The version this build writes.
    static let current = 9

    /// Brings `db` to `current`, a version at a time.
    static func migrate(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
        var version = try self.version(db)
        while version < current {
            try db.transaction { () throws(SQLiteDatabase.Failure) in
                version = try self.version(db)
                guard version < current else { return }
                try apply(version + 1, db)
                try db.query("PRAGMA user_version = \(version + 1)")
            }
            version = try self.version(db)
        }
    }

    static func version(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) -> Int {
        Int(try db.query("PRAGMA user_version").first?.first?.int ?? 0)
    }

    private static func apply(_ version: Int, _ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
        // IF NOT EXISTS and the column checks: a file whose tables an earlier build made outside
        // the versions (the outboxes, the step log, the anchor, the counters did) or that an
        // interrupted newer run left ahead of its version.
        switch version {
        case 1:
            // Manual trips, their points, the events and the fences' memberships.
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS trips (id INTEGER PRIMARY KEY, state TEXT NOT NULL, started_at REAL,
                  start_lat REAL, start_lon REAL, ended_at REAL, traveled_m REAL NOT NULL DEFAULT 0,
                  straight_line_m REAL NOT NULL DEFAULT 0, last_lat REAL, last_lon REAL, last_time REAL,
                  delivered INTEGER NOT NULL DEFAULT 0)
                """)
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS points (id INTEGER PRIMARY KEY, trip_id INTEGER NOT NULL, time REAL NOT NULL,
                  lat REAL NOT NULL, lon REAL NOT NULL, alt REAL, eph REAL, mode INTEGER)
                """)
            try db.query("CREATE INDEX IF NOT EXISTS points_trip_time ON points(trip_id, time)")
            try db.query("CREATE INDEX IF NOT EXISTS points_time ON points(time)")
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, time REAL, event TEXT NOT NULL,
                  fence TEXT, json TEXT NOT NULL)
                """)
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS fences (id TEXT PRIMARY KEY, membership INTEGER, since REAL,
                  entered_at REAL, dwell_sent INTEGER NOT NULL DEFAULT 0)
                """)
        case 2:
            // Automatic trips and stops (trip_mode = auto), and the detector's state.
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS auto_trips (id INTEGER PRIMARY KEY, start REAL NOT NULL, end REAL NOT NULL,
                  from_lat REAL, from_lon REAL, from_fences TEXT, to_lat REAL, to_lon REAL, to_fences TEXT,
                  traveled_m REAL, straight_line_m REAL, moving_s REAL, max_speed_mps REAL)
                """)
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS stops (arrival REAL PRIMARY KEY, departure REAL, lat REAL, lon REAL,
                  fences TEXT, after_trip INTEGER)
                """)
            try db.query(
                "CREATE TABLE IF NOT EXISTS motion (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)")
        case 3:
            // Each track point's HDOP and satellites used, NULL when unknown.
            try addColumns(db, "points", ["hdop": "REAL", "sats": "INTEGER"])
        case 4:
            // The tables the other parts made for themselves before they were versioned here.
            try db.query("CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)")
            // The anchor watch's state: one row, or none while the anchor is up.
            try db.query(
                "CREATE TABLE IF NOT EXISTS anchor (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)")
            // The MQTT outbox (`queued`: rows from before it have no time, left out of the age).
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, topic TEXT NOT NULL,
                  payload TEXT NOT NULL, qos INTEGER NOT NULL, queued REAL)
                """)
            try addColumns(db, "outbox", ["queued": "REAL"])
            // The HTTP uplinks' outbox (`fix_time`: for the age limit; rows from before have none).
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS uplink_outbox (id INTEGER PRIMARY KEY, uplink TEXT NOT NULL, kind TEXT NOT NULL,
                  payload TEXT NOT NULL, queued REAL NOT NULL)
                """)
            try addColumns(db, "uplink_outbox", ["fix_time": "REAL"])
            // The pedometer's figures and its step log.
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS pedometer (id INTEGER PRIMARY KEY CHECK (id = 1), total INTEGER NOT NULL,
                  distance_m REAL NOT NULL, walking_s REAL NOT NULL, trip_steps INTEGER NOT NULL, trip_distance_m REAL NOT NULL,
                  trip_walking_s REAL NOT NULL, last_counter INTEGER, learned_distance_m REAL NOT NULL, learned_steps INTEGER NOT NULL)
                """)
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS steps (id INTEGER PRIMARY KEY, time REAL NOT NULL, steps INTEGER NOT NULL,
                  distance_m REAL NOT NULL, walking_s REAL NOT NULL)
                """)
            try db.query("CREATE INDEX IF NOT EXISTS steps_time ON steps(time)")
        case 5:
            // Heights: `alt` above mean sea level, `alt_hae` above the ellipsoid. Earlier builds
            // stored gpsd's altHAE (else altMSL) as `alt` and kept no geoid separation, so an old
            // row's height moves to `alt_hae` and its sea-level height is unknown (NULL): an
            // ellipsoidal height is never told as above sea level.
            let had = Set(try db.query("PRAGMA table_info(points)").compactMap { $0[1].string })
            try addColumns(db, "points", ["alt_hae": "REAL"])
            if !had.contains("alt_hae") { try db.query("UPDATE points SET alt_hae = alt, alt = NULL") }
        case 6:
            // One outbox for every uplink (issue 37): the MQTT queue's rows move into
            // `uplink_outbox` as the queue `mqtt`, in their order, with their topic and QoS; its
            // old table goes. A row from before queue times were kept is queued now.
            try addColumns(db, "uplink_outbox", ["topic": "TEXT", "qos": "INTEGER"])
            try db.query(
                """
                INSERT INTO uplink_outbox (uplink, kind, payload, queued, topic, qos)
                  SELECT 'mqtt', kind, payload, coalesce(queued, CAST(strftime('%s', 'now') AS REAL)), topic, qos
                  FROM outbox ORDER BY id
                """)
            try db.query("DROP TABLE outbox")
        case 7:
            // A Traccar message keeps the OsmAnd form it was queued in (`form`), whatever
            // `traccar_format` says when it goes. Rows queued before kept it only in the payload
            // (a JSON body, else a query string): read from there once, here.
            try addColumns(db, "uplink_outbox", ["form": "TEXT"])
            try db.query(
                """
                UPDATE uplink_outbox SET form = CASE WHEN substr(payload, 1, 1) = '{' THEN 'json' ELSE 'query' END
                  WHERE uplink = 'traccar' AND form IS NULL
                """)
        case 8:
            // A trip's engine seconds (`input_ignition`); NULL without an ignition read. A file
            // only other parts wrote (an outbox's) has no trips table to gain it.
            if try !db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'auto_trips'").isEmpty {
                try addColumns(db, "auto_trips", ["engine_s": "REAL"])
            }
        case 9:
            // The inputs' state across a restart (`InputMonitor.encodedState`): one row.
            try db.query(
                "CREATE TABLE IF NOT EXISTS inputs (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)")
        default:
            break
        }
    }

    /// Adds each of `columns` (name: type) that `table` lacks.
    private static func addColumns(
        _ db: SQLiteDatabase, _ table: String, _ columns: KeyValuePairs<String, String>
    ) throws(SQLiteDatabase.Failure) {
        let have = Set(try db.query("PRAGMA table_info(\(table))").compactMap { $0[1].string })
        for (name, type) in columns where !have.contains(name) {
            try db.query("ALTER TABLE \(table) ADD COLUMN \(name) \(type)")
        }
    }
}
