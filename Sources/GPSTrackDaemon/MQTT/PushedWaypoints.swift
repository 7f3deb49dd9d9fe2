import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The circles pushed from the broker (`setWaypoints`), kept in the state directory
/// (`pushed-waypoints.json`, the canonical `setWaypoints` command) so that they survive a
/// restart, and merged with the fences file's: a pushed id that is also a file id is refused.
enum PushedWaypoints {
    static func path(_ stateDirectory: String) -> String { stateDirectory + "/pushed-waypoints.json" }

    /// The kept set; empty when none was pushed. A file that does not read is an error naming it.
    static func load(_ stateDirectory: String) throws(FenceError) -> [MQTTCommand.Waypoint] {
        let file = path(stateDirectory)
        guard access(file, F_OK) == 0 else { return [] }
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(file, maxBytes: MQTTCommand.maxBytes, regularOnly: true) } catch {
            throw FenceError(file: file, reason: "cannot read: \(error)")
        }
        switch MQTTCommand.parse(bytes) {
        case .success(.setWaypoints(let list)): return list
        case .success: throw FenceError(file: file, reason: "not a setWaypoints command")
        case .failure(let refusal): throw FenceError(file: file, reason: refusal.reason)
        }
    }

    /// Writes the set whole (see `StateFile.replace`): never half.
    static func save(_ list: [MQTTCommand.Waypoint], stateDirectory: String) -> String? {
        StateFile.replace(path(stateDirectory), with: Array(MQTTCommand.setWaypoints(list).json.utf8) + [10])
    }

    /// The file's fences and the pushed sets as one index (nil with none), in that order: a
    /// pushed id that is a file id, or in both pushed sets, refuses the whole.
    static func merged(
        _ fileFences: [Fence], pushed: [MQTTCommand.Waypoint], fences: [Fence] = [], file: String
    ) throws(FenceError) -> FenceIndex? {
        let ids = Set(fileFences.map(\.id))
        func refuse(_ clashes: [String], _ what: String, _ place: String) throws(FenceError) {
            guard !clashes.isEmpty else { return }
            let named = clashes.prefix(5).map { ReplyEncoder.quote(MQTTCommand.printable($0)) }
            throw FenceError(file: file, reason: "\(what) \(named.joined(separator: ", ")) \(place)")
        }
        try refuse(pushed.map(\.rid).filter(ids.contains), "pushed waypoint id", "is a fence of the fences file")
        try refuse(fences.map(\.id).filter(ids.contains), "pushed fence id", "is a fence of the fences file")
        let rids = Set(pushed.map(\.rid))
        try refuse(fences.map(\.id).filter(rids.contains), "pushed fence id", "is a pushed waypoint's rid")
        guard !fileFences.isEmpty || !pushed.isEmpty || !fences.isEmpty else { return nil }
        var all = fileFences + pushed.map(\.fence) + fences
        for i in all.indices { all[i].index = i }
        return try FenceIndex(fences: all, file: file)
    }

    /// The fences file's index with the kept sets added (at start and on every reload).
    static func merged(_ fileIndex: FenceIndex?, stateDirectory: String, file: String) throws(FenceError) -> FenceIndex?
    {
        let pushed = try load(stateDirectory)
        let fences = try PushedFences.load(stateDirectory)
        guard !pushed.isEmpty || !fences.isEmpty else { return fileIndex }
        return try merged(fileIndex?.fences ?? [], pushed: pushed, fences: fences, file: file)
    }

    /// The fences in force with one pushed set replaced (the other kept as it is stored): the
    /// file's fences are those in force that neither stored set holds.
    static func replacing(
        waypoints: [MQTTCommand.Waypoint]? = nil, fences: [Fence]? = nil, in force: [Fence], stateDirectory: String
    ) throws(FenceError) -> FenceIndex? {
        let oldWaypoints = try load(stateDirectory)
        let oldFences = try PushedFences.load(stateDirectory)
        let pushedIDs = Set(oldWaypoints.map(\.rid)).union(oldFences.map(\.id))
        return try merged(
            force.filter { !pushedIDs.contains($0.id) }, pushed: waypoints ?? oldWaypoints, fences: fences ?? oldFences,
            file: fences == nil ? path(stateDirectory) : PushedFences.path(stateDirectory))
    }
}
