import GPSTrackCore
import GPSTrackProtocol

/// Keeps the anchor watch's state in the state database: after every step that changed what a
/// restart must find (anchored, the anchor, the radius, the latched alarms, the greatest
/// distance by a metre or more), the row is written again. It runs after the store's sink, so
/// the events that tell of a change are committed first; a kill between the two finds the
/// earlier state, and an alarm stored without its latch is raised again by the next fixes.
final class AnchorSink: TrackerSink {
    let name = "anchor"
    let store: Store
    /// What was last written (nil: the anchor up), and the greatest distance in it.
    private var saved: String?
    private var savedMaxM = 0.0
    /// Whether the last write failed: the next step tries again.
    private var unsaved = false

    init(store: Store) {
        self.store = store
        saved = store.loadAnchor().flatMap(AnchorWatch.State.init(encoded:)).map(Self.key)
    }

    func take(_ step: TrackerStep) -> [LogEntry] {
        let state = step.anchor
        let key = state.map(Self.key)
        let grew = (state?.maxDistanceM ?? 0) >= savedMaxM + 1
        guard unsaved || key != saved || grew else { return [] }
        unsaved = !store.saveAnchor(state?.encoded)
        if !unsaved {
            saved = key
            savedMaxM = state?.maxDistanceM ?? 0
        }
        return []
    }

    func finish(_ last: TrackerStep) {
        store.saveAnchor(last.anchor?.encoded)
    }

    /// The part of the state whose change must be written at once: everything but the last
    /// fix's figures and the greatest distance (written as it grows by a metre).
    static func key(_ s: AnchorWatch.State) -> String {
        var k = s
        k.lastFixTime = nil
        k.lastDistanceM = nil
        k.lastBearing = nil
        k.maxDistanceM = 0
        k.maxAt = nil
        return k.encoded
    }
}
