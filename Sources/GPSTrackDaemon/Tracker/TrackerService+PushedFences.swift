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
        return pushed(
            "fences", count: set.fences.count, command, mqtt,
            index: { () throws -> FenceIndex? in
                try PushedWaypoints.replacing(
                    fences: set.fences, in: session.geofences?.index.fences ?? [], stateDirectory: dir)
            },
            save: { PushedFences.save(set, stateDirectory: dir) })
    }

    /// A pushed set (`what`: waypoints or fences, `count` of them) put in force as a reload is:
    /// the merged index built, the set's file written, then the fences replaced and the sinks
    /// told; either failure leaves all as it was. Answered with the counts.
    func pushed(
        _ what: String, count: Int, _ command: MQTTCommand, _ mqtt: any CommandChannel,
        index build: () throws -> FenceIndex?, save: () -> String?
    ) -> Result<String, ControlError> {
        let index: FenceIndex?
        do { index = try build() } catch {
            return answered(
                .failure(ControlError("\(what) not applied, the previous ones stay in force: \(error)")), command,
                mqtt)
        }
        if let problem = save() {
            return answered(
                .failure(ControlError("\(what) not applied, the previous ones stay in force: \(problem)")), command,
                mqtt)
        }
        putInForce(index)
        let inForce = index?.fences.count ?? 0
        emit(
            LogEntry(
                event: .fencesReloaded, priority: .info,
                message: "\(count) \(what) pushed from the broker, \(inForce) fences in force",
                fields: [(.fences, String(inForce))]))
        return answered(
            .success("\(count) \(what) pushed, \(inForce) fences in force"), command, mqtt,
            reply: BrokerMessage.Pushed(pushed: count, fences: inForce))
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
