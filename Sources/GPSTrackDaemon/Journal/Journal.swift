import CSystemd
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Where journal entries end up, in the manner of swift-log's `LogHandler`: the systemd journal
/// or stderr (`Journal(target:)`), or an in-memory backend in the tests (GPSTrackTestKit's
/// `InMemoryJournal`).
public protocol JournalBackend: Sendable {
    /// Takes one entry (already filtered by priority).
    func send(_ entry: LogEntry)
}

/// Writes log entries to the systemd journal through `sd_journal_sendv`, with
/// `SYSLOG_IDENTIFIER=gpstrackd`, `PRIORITY`, `MESSAGE_ID` and the entry's `GPSTRACK_*` fields;
/// or, with no journal to talk to, readably to stderr; or to another backend.
public final class Journal: Sendable {
    /// Where entries go.
    public enum Target: String, Sendable {
        /// The journal when its socket exists, else stderr.
        case auto
        case journal
        case stderr
    }

    public static let socketPath = "/run/systemd/journal/socket"
    public let useJournal: Bool
    private let identifier: String
    /// Serializes writes to stderr (one entry, one uninterrupted line).
    private let lock = Synchronization.Mutex(())
    /// Entries below this priority are dropped (debug is off unless asked for).
    public let maxPriority: LogEntry.Priority
    private let backend: (any JournalBackend)?

    /// A journal whose entries go to `backend` alone.
    public init(backend: any JournalBackend, maxPriority: LogEntry.Priority = .info) {
        useJournal = false
        identifier = "gpstrackd"
        self.maxPriority = maxPriority
        self.backend = backend
    }

    public init(target: Target, identifier: String = "gpstrackd", maxPriority: LogEntry.Priority = .info) {
        switch target {
        case .journal: useJournal = true
        case .stderr: useJournal = false
        case .auto: useJournal = access(Self.socketPath, W_OK) == 0
        }
        self.identifier = identifier
        self.maxPriority = maxPriority
        backend = nil
    }

    /// Sends one entry.
    public func log(_ entry: LogEntry) {
        guard entry.priority.rawValue <= maxPriority.rawValue else { return }
        if let backend { return backend.send(entry) }
        if useJournal, sendToJournal(entry) { return }
        writeToStderr(entry)
    }

    private func sendToJournal(_ entry: LogEntry) -> Bool {
        var fields = [
            "MESSAGE=\(entry.message)",
            "PRIORITY=\(entry.priority.rawValue)",
            "SYSLOG_IDENTIFIER=\(identifier)",
            "GPSTRACK_EVENT=\(entry.event.rawValue)",
        ]
        if let id = entry.event.messageID { fields.append("MESSAGE_ID=\(id)") }
        for (k, v) in entry.fields { fields.append("\(k.rawValue)=\(v)") }
        let blobs = fields.map { Array($0.utf8) }
        var total = 0
        for b in blobs { total += b.count }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(total, 1), alignment: 1)
        defer { storage.deallocate() }
        var iov: [iovec] = []
        var offset = 0
        for b in blobs {
            let base = storage.baseAddress! + offset
            b.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: b.count) }
            iov.append(iovec(iov_base: base, iov_len: b.count))
            offset += b.count
        }
        return iov.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) } >= 0
    }

    private func writeToStderr(_ entry: LogEntry) {
        var line = "\(identifier): <\(entry.priority.name)> \(entry.message)"
        if !entry.fields.isEmpty {
            line += " [" + entry.fields.map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: " ") + "]"
        }
        line += "\n"
        lock.withLock { _ in _ = writeAll(STDERR_FILENO, line) }
    }
}
