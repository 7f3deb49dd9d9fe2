import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import Synchronization

/// A journal backend that keeps what it is sent, for in-process tests (swift-log's
/// `InMemoryLogging`): entries in order, by event, and a wait on a condition that resumes when
/// an entry makes it true (no polling, no sleeps).
public final class InMemoryJournal: JournalBackend {
    private struct Waiter {
        var id: Int
        var until: @Sendable ([LogEntry]) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var entries: [LogEntry] = []
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    public init() {}

    public func send(_ entry: LogEntry) {
        let ready = state.withLock { s -> [Waiter] in
            s.entries.append(entry)
            let entries = s.entries
            let (done, waiting) = (s.waiters.filter { $0.until(entries) }, s.waiters.filter { !$0.until(entries) })
            s.waiters = waiting
            return done
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// Every entry so far, in order.
    public var entries: [LogEntry] { state.withLock { $0.entries } }

    /// The entries of one event.
    public func entries(_ event: EventName) -> [LogEntry] { entries.filter { $0.event == event } }

    /// A journal that writes here.
    public var journal: Journal { Journal(backend: self, maxPriority: .debug) }

    /// Waits until `until` holds for the entries; false when `refereeS` (a generous referee,
    /// not a timing) passed first.
    public func wait(refereeS: Double = 60, until: @escaping @Sendable ([LogEntry]) -> Bool) async -> Bool {
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        let referee = Task {
            try? await Task.sleep(for: .seconds(refereeS))
            let late = state.withLock { s -> Waiter? in
                guard let i = s.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return s.waiters.remove(at: i)
            }
            late?.continuation.resume(returning: false)
        }
        defer { referee.cancel() }
        return await withCheckedContinuation { continuation in
            let now = state.withLock { s -> Bool in
                if until(s.entries) { return true }
                s.waiters.append(Waiter(id: id, until: until, continuation: continuation))
                return false
            }
            if now { continuation.resume(returning: true) }
        }
    }
}
