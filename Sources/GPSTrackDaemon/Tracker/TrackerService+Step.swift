import GPSTrackCore
import GPSTrackProtocol

/// The fences' values the actor keeps between steps, so that a step costs no walk over every
/// fence: the names inside are built again only after a change of membership, and the
/// fences at a stop only when the stop moves. Emptied when other fences come in force.
struct FenceFactsCache {
    /// The monitor's `insideChanges` the names were built at, and the names.
    var insideAt: Int?
    var inside: [String] = []
    /// The fences at the last places asked (the last ended and the current stop).
    var atStops: [(Coordinate, [String])] = []
}

extension TrackerService {
    /// The step the sinks hear: what came in and happened, with the state the session is left
    /// in, as values.
    func step(
        _ events: [TrackingSession.Sequenced], force: Bool = false, fix: Fix? = nil, outcome: Tracker.Outcome = .none
    ) -> TrackerStep {
        TrackerStep(
            fix: fix, outcome: outcome, events: events, force: force, tracker: session.tracker,
            anchor: session.anchor.state, fences: fenceFacts(for: events), inputs: session.inputs,
            overspeeding: session.overspeedMonitor.active, hasFix: session.hasFix)
    }

    /// The fences now: the names inside, what the step's fence events' fences must remember,
    /// and (automatic trips) the fences at the detector's last ended and current stop.
    func fenceFacts(for events: [TrackingSession.Sequenced] = []) -> FenceFacts {
        var facts = FenceFacts()
        if let monitor = session.geofences {
            if fenceFactsCache.insideAt != monitor.insideChanges {
                fenceFactsCache.inside = session.insideFenceNames
                fenceFactsCache.insideAt = monitor.insideChanges
            }
            facts.inside = fenceFactsCache.inside
            for e in events {
                if case .fence(let f) = e.event, let memory = monitor.memory(for: f) {
                    facts.memories[f.fenceID] = memory
                }
            }
        }
        if configuration.tracker.tripMode == .auto {
            let detector = session.tracker.trips
            let stops = [detector.lastEndedStop, detector.currentStop].compactMap { $0 }
            let cached = fenceFactsCache.atStops
            fenceFactsCache.atStops = stops.map { stop in
                (stop.at, cached.first { $0.0 == stop.at }?.1 ?? session.fenceNames(at: stop.at))
            }
            facts.stops = zip(stops, fenceFactsCache.atStops).map { ($0, $1.1) }
        }
        return facts
    }
}
