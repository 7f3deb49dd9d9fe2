import GPSTrackCore
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

    /// Writes the set whole (a temporary file, synced, renamed over the old one): never half.
    static func save(_ list: [MQTTCommand.Waypoint], stateDirectory: String) -> String? {
        let file = path(stateDirectory)
        let temporary = file + ".new"
        let bytes = Array(MQTTCommand.setWaypoints(list).json.utf8) + [10]
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else { return "cannot write \(temporary): \(String(cString: strerror(errno)))" }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let e = errno
                close(fd)
                unlink(temporary)
                return "cannot write \(temporary): \(String(cString: strerror(e)))"
            }
            written += n
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, file) == 0 else {
            let e = errno
            unlink(temporary)
            return "cannot write \(file): \(String(cString: strerror(e)))"
        }
        return nil
    }

    /// The file's fences and the pushed circles as one index (nil with neither).
    static func merged(_ fileFences: [Fence], pushed: [MQTTCommand.Waypoint], file: String) throws(FenceError)
        -> FenceIndex?
    {
        let ids = Set(fileFences.map(\.id))
        let clashes = pushed.filter { ids.contains($0.rid) }.map { JSONObject.quote($0.rid) }
        guard clashes.isEmpty else {
            throw FenceError(
                file: file,
                reason: "pushed waypoint id \(clashes.prefix(5).joined(separator: ", ")) is a fence of the fences file")
        }
        guard !fileFences.isEmpty || !pushed.isEmpty else { return nil }
        var all = fileFences + pushed.map(\.fence)
        for i in all.indices { all[i].index = i }
        return try FenceIndex(fences: all, file: file)
    }

    /// The fences file's index with the kept set added (at start and on every reload).
    static func merged(_ fileIndex: FenceIndex?, stateDirectory: String, file: String) throws(FenceError) -> FenceIndex?
    {
        let pushed = try load(stateDirectory)
        guard !pushed.isEmpty else { return fileIndex }
        return try merged(fileIndex?.fences ?? [], pushed: pushed, file: file)
    }
}
