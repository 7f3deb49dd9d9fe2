// libFuzzer harness: the start's restore of every table from a state database of hostile rows.
// The input is read as rows: a byte picks the table, then each column's value by a byte of kind
// (NULL, an integer, an edge integer such as Int64's greatest, a real from 8 bytes, an edge real
// such as 1e300, text or JSON-like text). The rows go into a fresh database (the schema's own
// migration), and then what a start reads runs as the daemon runs it: the store's open (its
// damage scan), its restore into a tracking session with fences, a fix counted on from the
// restored counters, the anchor watch's and the inputs' state, the pedometer's figures and step
// log, an HTTP uplink's outbox, and the history replies (trips, automatic trips, stops, events,
// export pages) encoded as the socket sends them. Properties: no crash, trap or hang; no reply
// holds a figure a reply cannot carry (nan or an infinity: the encoder refuses it); the inputs'
// state that reads back is written back the same.
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

@testable import GPSTrackDaemon

#if canImport(Glibc)
import Glibc
#endif

struct Quiet: JournalBackend { func send(_ entry: LogEntry) {} }

// In memory (tmpfs): the store syncs every commit, and a disk's fsync would make the run
// a few inputs a second.
let directory =
    (getenv("GPSTRACK_FUZZ_DIR").map { String(cString: $0) } ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"))
    + "/gpstrackd-fuzz-restore-\(getpid())"
/// The schema's database, made once and copied for every input (migrating it each time is slow).
nonisolated(unsafe) var template: [UInt8] = []
let journal = Journal(backend: Quiet())
nonisolated(unsafe) var tables: [(name: String, columns: [String])] = []
/// Two circles the fence memories may name.
let fences = try! FenceIndex(
    fences: [
        Fence(index: 0, id: "gate", shape: .circle(center: Coordinate(latitude: 47.37, longitude: 8.54), radiusM: 60)),
        Fence(index: 1, id: "dock", shape: .circle(center: Coordinate(latitude: 47.38, longitude: 8.55), radiusM: 90)),
    ], file: "fuzz")

/// The input's bytes, taken from the front; zeros once they run out.
struct Reader {
    var bytes: [UInt8]
    var at = 0
    var done: Bool { at >= bytes.count }
    mutating func byte() -> UInt8 {
        defer { at += 1 }
        return at < bytes.count ? bytes[at] : 0
    }
    mutating func word() -> UInt64 { (0..<8).reduce(0) { v, _ in v << 8 | UInt64(byte()) } }
    mutating func text() -> String {
        let n = Int(byte() % 48)
        let end = min(bytes.count, at + n)
        defer { at = end }
        return String(decoding: bytes[min(at, end)..<end], as: UTF8.self)
    }
}

let edgeIntegers: [Int64] = [0, 1, -1, 2, Int64.max, Int64.min, 1 << 53, 1 << 31, -(1 << 31), 999_999_999_999_999]
let edgeReals: [Double] = [
    0, -0.0, 1e300, -1e300, 1e19, 9.3e18, 1e15, 1e10, 90.000001, -180.5, 253_402_300_800, .ulpOfOne,
    Double.greatestFiniteMagnitude, 1_773_475_200,
]
/// Fragments of what the text columns hold when a run wrote them (state strings, JSON).
let fragments = [
    #"{"event":"enter","fence":"gate","time":"2026-03-14T08:00:00Z","lat":47.37,"lon":8.54,"seq":3}"#,
    "v=1 state=moving since=1773475200", #"{"lat":47.37,"lon":8.54,"radius_m":40,"since":1773475200}"#,
    "location", "running", "stopped", "ended", "traccar", "owntracks_http", "gate", "total", "accepted",
    "delivered", "rejected.duplicate",
    "inputs_engine_total=130\ninputs_periods=1773475000,1773475130\ninputs_battery_low=1\ninputs_sos=1773475140,1773475140,0,0", #"{"_type":"location","lat":1e300}"#,
]

func value(_ r: inout Reader) -> SQLiteDatabase.Value {
    switch r.byte() % 8 {
    case 0: .null
    case 1: .int(Int64(Int8(bitPattern: r.byte())))
    case 2: .int(edgeIntegers[Int(r.byte()) % edgeIntegers.count])
    case 3: .int(Int64(bitPattern: r.word()))
    case 4: .real(Double(bitPattern: r.word()))
    case 5: .real(edgeReals[Int(r.byte()) % edgeReals.count] * (r.byte() & 1 == 0 ? 1 : -1))
    case 6: .text(r.text())
    default:
        .text(fragments[Int(r.byte()) % fragments.count] + (r.byte() & 1 == 0 ? "" : r.text()))
    }
}

/// A fresh database with the schema, and the input's rows in it.
func build(_ bytes: [UInt8]) {
    let path = directory + "/gpstrackd.db"
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    if template.isEmpty {
        let db = try! SQLiteDatabase(path: path)
        try! Schema.prepare(db)
        _ = try! db.query("PRAGMA journal_mode=DELETE")
        template = try! FileIO.readAll(path, maxBytes: 1 << 20, regularOnly: true)
        unlink(path)
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = template.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    let db = try! SQLiteDatabase(path: path)
    if tables.isEmpty {
        let names = try! db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .compactMap { $0.first?.string }
        tables = names.map { name in
            (name, try! db.query("PRAGMA table_info(\(name))").compactMap { $0[1].string })
        }
    }
    var r = Reader(bytes: bytes)
    var rows = 0
    _ = try? db.query("BEGIN")
    defer { _ = try? db.query("COMMIT") }
    while !r.done, rows < 64 {
        let t = tables[Int(r.byte()) % tables.count]
        let values = t.columns.map { _ in value(&r) }
        let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
        // NOT NULL and CHECK refuse some: a database holds only what SQLite lets in.
        _ = try? db.query(
            "INSERT OR REPLACE INTO \(t.name) (\(t.columns.joined(separator: ", "))) VALUES (\(marks))", values)
        rows += 1
    }
}

/// A reply as the socket sends it; the encoder's refusal (a figure JSON cannot carry) is a finding.
func encoded(_ reply: Result<any Encodable & Sendable, ControlError>, _ what: String) {
    guard case .success(let r) = reply else { return }
    let line = ReplyEncoder.encode(r)
    if line.hasPrefix(#"{"ok":false,"error":"cannot encode"#) { fatalError("\(what): \(line.prefix(300))") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    mkdir(directory, 0o700)
    build(Array(UnsafeBufferPointer(start: data, count: size)))

    let store = Store(directory: directory, journal: journal)
    let restored = store.restore()
    var config = TrackerConfig()
    config.tripMode = size % 2 == 0 ? .auto : .manual
    var session = TrackingSession(config: config, fences: fences)
    session.restore(
        trip: restored.trip, counters: restored.counters, seq: restored.seq, fences: restored.fences,
        trips: config.tripMode == .auto ? restored.motion : nil)
    if let text = store.loadAnchor(), let state = AnchorWatch.State(encoded: text) { session.restore(anchor: state) }
    // The inputs' row: what reads back is written back the same and reads again.
    if let text = store.loadInputs(), session.restore(inputs: text) {
        let written = session.inputs.encodedState(now: nil)
        guard let again = InputMonitor(state: written, config: session.inputs.config) else {
            fatalError("the inputs' state written back does not read: \(written)")
        }
        precondition(again.encodedState(now: nil) == written, "the inputs' state changed through a restore")
        _ = session.input(.level(.ignition, on: true), time: 1_773_475_250)
        _ = session.tickInputs(now: 1_773_475_260)
    }
    // Counted on from the restored counters and trip: the next fix.
    _ = session.ingest(
        Fix(mode: 3, time: 1_773_475_300, latitude: 47.37, longitude: 8.54, altitude: 500, eph: 5, speed: 1, track: 0))

    var steps = StepFigures(strideM: 0.75, file: store.file)
    _ = ReplyEncoder.encode(steps.query(since: nil))
    _ = ReplyEncoder.encode(steps.query(since: 1_773_475_000))
    // The one outbox, as an HTTP sender reads it (one at a time) and as MQTT's pump does (20).
    let outbox = Outbox(uplink: "traccar", file: store.file, limit: 100, maxAgeS: 86_400)
    _ = outbox.head()
    _ = outbox.waiting
    let mqtt = Outbox(uplink: "mqtt", file: store.file, limit: 100)
    for m in mqtt.next(20) { mqtt.remove(m) }
    _ = mqtt.waiting

    let view = HistoryView(store: store, session: session, tripMode: config.tripMode, journal: journal)
    encoded(HistoryHandlers.trips(view), "trips")
    encoded(HistoryHandlers.autoTrips(view), "auto trips")
    encoded(HistoryHandlers.stops(view), "stops")
    encoded(HistoryHandlers.events(view, since: nil, fence: nil), "events")
    var after: Int?
    var pages = 0
    repeat {
        let page = ExportHandlers.page(view, ExportScope(trip: nil, since: nil, until: nil), after: after, limit: 16)
        encoded(page, "export page")
        guard case .success(let reply as ExportPageReply) = page else { break }
        after = reply.after
        pages += 1
    } while after != nil && pages < 8
    encoded(ExportHandlers.page(view, ExportScope(trip: 1, since: nil, until: nil), after: nil, limit: nil), "trip 1")
    return 0
}
