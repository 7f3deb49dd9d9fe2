import GPSTrackCore
import GPSTrackProtocol

/// Keeps the inputs' state in the state database (gpstrackd(8), INPUTS, Kept across a
/// restart): written after every step that changed it (an ignition off, a battery mark, a
/// latched alarm raised, repeated or acknowledged), and every `runningEvery` seconds of fix
/// time while the ignition is on, so that a kill loses at most that much engine time. It runs
/// after the store's sink: the events that tell of a change are committed first.
final class InputsSink: TrackerSink {
    let name = "inputs"
    let store: Store
    /// Seconds of fix time between writes of a running ignition's time.
    static let runningEvery = 60.0
    private var saved: String?
    private var savedAt: Double?
    /// Whether the last write failed: the next step tries again.
    private var unsaved = false

    init(store: Store) {
        self.store = store
        // A row that does not read is left in the file until there is state to keep.
        saved = store.loadInputs().map {
            InputMonitor(state: $0, config: .init()) == nil ? InputMonitor().stateKey : $0
        }
    }

    func take(_ step: TrackerStep) -> [LogEntry] {
        let inputs = step.inputs
        let key = inputs.stateKey
        let now = step.fix?.time ?? step.tracker.lastAccepted?.time
        let running =
            inputs.ignition == true && now.map { t in savedAt.map { t - $0 >= Self.runningEvery } ?? true } == true
        guard unsaved || key != saved || running else { return [] }
        unsaved = !store.saveInputs(inputs.encodedState(now: now))
        if !unsaved {
            saved = key
            savedAt = now
        }
        return []
    }

    func finish(_ last: TrackerStep) {
        let inputs = last.inputs
        guard unsaved || inputs.stateKey != saved || inputs.ignition == true else { return }
        store.saveInputs(inputs.encodedState(now: last.fix?.time ?? last.tracker.lastAccepted?.time))
    }
}
