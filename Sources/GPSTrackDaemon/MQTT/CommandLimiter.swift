import Synchronization

/// The broker command channel's memory, so that a flood of bad commands floods neither the
/// journal nor the outbox: a refusal's entry at most once a `window` for the same reason and
/// `maxEntries` a window in all; `maxAnswers` answers to refused commands a window. Monotonic
/// time (this is rate limiting, not tracking). Its own lock: the publisher owns it, the
/// tracker's actor uses it.
final class CommandLimiter: Sendable {
    static let window = 60.0
    static let maxEntries = 5
    static let maxAnswers = 10
    /// Commands run a window: allowed ones are limited too, not only refusals.
    static let maxRuns = 60

    private struct State {
        var logged: [String: Double] = [:]
        var entries: [Double] = []
        var answers: [Double] = []
        var runs: [Double] = []
        var held = 0
        var lastError: String?
    }
    private let state = Mutex(State())

    /// Whether a refusal with `key` is logged now, and how many were held back before it.
    func entry(_ key: String, now: Double) -> (log: Bool, held: Int) {
        state.withLock { s in
            s.entries.removeAll { now - $0 >= Self.window }
            s.logged = s.logged.filter { now - $0.value < Self.window }
            guard s.logged[key] == nil, s.entries.count < Self.maxEntries else {
                s.held += 1
                return (false, 0)
            }
            s.logged[key] = now
            s.entries.append(now)
            defer { s.held = 0 }
            return (true, s.held)
        }
    }

    /// Whether a refused command is answered now.
    func answer(now: Double) -> Bool {
        state.withLock { s in
            s.answers.removeAll { now - $0 >= Self.window }
            guard s.answers.count < Self.maxAnswers else { return false }
            s.answers.append(now)
            return true
        }
    }

    /// Whether a command allowed may run now (at most `maxRuns` a window).
    func run(now: Double) -> Bool {
        state.withLock { s in
            s.runs.removeAll { now - $0 >= Self.window }
            guard s.runs.count < Self.maxRuns else { return false }
            s.runs.append(now)
            return true
        }
    }

    /// The last command refused or failed, for the `status` message.
    var lastError: String? {
        get { state.withLock { $0.lastError } }
        set { state.withLock { $0.lastError = newValue } }
    }
}
