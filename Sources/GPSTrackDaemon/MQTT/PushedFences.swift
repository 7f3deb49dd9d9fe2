import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The fences pushed from the broker (`setFences`), kept in the state directory
/// (`pushed-fences.json`, the canonical `setFences` command) so that they survive a restart,
/// and merged with the fences file's and the pushed waypoints (see `PushedWaypoints.merged`).
enum PushedFences {
    static func path(_ stateDirectory: String) -> String { stateDirectory + "/pushed-fences.json" }

    /// The kept set; empty when none was pushed. A file that does not read is an error naming it.
    static func load(_ stateDirectory: String) throws(FenceError) -> [Fence] {
        let file = path(stateDirectory)
        guard access(file, F_OK) == 0 else { return [] }
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(file, maxBytes: MQTTCommand.maxBytes, regularOnly: true) } catch {
            throw FenceError(file: file, reason: "cannot read: \(error)")
        }
        switch MQTTCommand.parse(bytes) {
        case .success(.setFences(let set)): return set.fences
        case .success: throw FenceError(file: file, reason: "not a setFences command")
        case .failure(let refusal): throw FenceError(file: file, reason: refusal.reason)
        }
    }

    /// Writes the set whole (see `StateFile.replace`): never half.
    static func save(_ set: MQTTCommand.FenceSet, stateDirectory: String) -> String? {
        StateFile.replace(path(stateDirectory), with: Array(MQTTCommand.setFences(set).json.utf8) + [10])
    }
}

/// A file of the state directory replaced whole.
enum StateFile {
    /// Writes `bytes` to a temporary file, syncs it and renames it over `file`: a crash leaves
    /// the old file or the new one, never half. Nil, or why it could not.
    static func replace(_ file: String, with bytes: [UInt8]) -> String? {
        let temporary = file + ".new"
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
}
