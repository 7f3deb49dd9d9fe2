import GPSTrackCore
import GPSTrackProtocol

/// `setFences`: a GeoJSON FeatureCollection pushed from the broker, replacing the pushed fences
/// as `setWaypoints` replaces the pushed circles.
extension TrackerService {
    /// The pushed fences replaced whole, kept in the state directory first, merged with the
    /// file's fences and the pushed waypoints and applied as a reload is (fences kept carry their
    /// state over, so that no fence the box stays inside is entered again). A clash of ids, or a
    /// state file that cannot be written, leaves all as it was.
    func pushFences(
        _ set: MQTTCommand.FenceSet, _ command: MQTTCommand, _ mqtt: any CommandChannel
    ) -> Result<String, ControlError> {
        let dir = configuration.stateDirectory
        let index: FenceIndex?
        do {
            index = try PushedWaypoints.replacing(
                fences: set.fences, in: session.geofences?.index.fences ?? [], stateDirectory: dir)
        } catch {
            return answered(
                .failure(ControlError("fences not applied, the previous ones stay in force: \(error)")), command, mqtt)
        }
        if let problem = PushedFences.save(set, stateDirectory: dir) {
            return answered(
                .failure(ControlError("fences not applied, the previous ones stay in force: \(problem)")), command,
                mqtt)
        }
        session.replaceFences(index)
        for sink in sinks { sink.fencesReplaced(session: session) }
        let count = index?.fences.count ?? 0
        emit(
            LogEntry(
                event: .fencesReloaded, priority: .info,
                message: "\(set.fences.count) fences pushed from the broker, \(count) fences in force",
                fields: [(.fences, String(count))]))
        return answered(
            .success("\(set.fences.count) fences pushed, \(count) fences in force"), command, mqtt,
            reply: "{\"ok\":true,\"pushed\":\(set.fences.count),\"fences\":\(count)}")
    }
}

extension MQTTCommand {
    /// A pushed set (up to `maxBytes`): its answer carries counts, not the command echoed.
    var isPushedSet: Bool {
        switch self {
        case .setWaypoints, .setFences: true
        default: false
        }
    }
}
