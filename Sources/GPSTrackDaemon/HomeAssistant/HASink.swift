import GPSTrackCore
import GPSTrackProtocol

/// Home Assistant's outlet, a sink of the tracker: each step's state (`HAState`) handed to
/// `HADiscovery`, which paces it; the fences in force make the fence entities.
final class HASink: TrackerSink {
    let name = "home-assistant"
    let discovery: HADiscovery
    private(set) var setup: HAEntityList.Setup
    let tripMode: TrackerConfig.TripMode
    /// The day's distance: the outlets' one (it hears each step before this sink), set with
    /// `steps` by `TrackerService.linkHomeAssistant`.
    var day: DayDistance?
    private var fences: [(fence: Fence, object: String)] = []
    /// The tracker's zone at the last fix, kept while the fix is lost.
    private var zone: String?
    private var fenceList: [Fence]?
    /// The pedometer's total, nil until it runs (an IIO source found): its entity is announced
    /// then. Set by the tracker (`TrackerService.linkHomeAssistant`).
    var steps: (() -> Int?)?

    init(discovery: HADiscovery, setup: HAEntityList.Setup, tripMode: TrackerConfig.TripMode) {
        self.discovery = discovery
        self.setup = setup
        self.tripMode = tripMode
    }

    func fencesReplaced(_ fences: [Fence]?) {
        fenceList = fences
        self.fences = HAEntityList.fenceObjects(fences)
        discovery.setEntities(HAEntityList.entities(setup, fences: fences))
    }

    func take(_ step: TrackerStep) -> [LogEntry] {
        let today = day?.status(trip: step.tracker.trip)?.traveledM
        let total = steps?()
        if total != nil, !setup.pedometer {
            setup.pedometer = true
            discovery.setEntities(HAEntityList.entities(setup, fences: fenceList))
        }
        var state = HAState(step: step, fences: fences, todayM: today, setup: setup, tripMode: tripMode)
        state.steps = total
        if state.fix { zone = state.zone } else if let zone { state.zone = zone }
        discovery.offer(state, fixReceived: step.accepted)
        return []
    }

    func finish(_ last: TrackerStep) { _ = take(last) }
}
