#if canImport(Glibc)
import Glibc
#endif

/// The peer of a Unix socket as the kernel reports it (`SO_PEERCRED`), and what it may do.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    /// Linux's `SO_PEERCRED` and its `struct ucred` (pid, uid, gid), which Glibc's Swift
    /// module does not expose without _GNU_SOURCE.
    static let soPeerCred: Int32 = 17

    /// Reads the peer of a connected Unix socket.
    public static func of(_ fd: Int32) -> PeerCredentials? {
        var raw = (Int32(0), UInt32(0), UInt32(0))
        var len = socklen_t(MemoryLayout.size(ofValue: raw))
        guard (try? syscall("getsockopt", { getsockopt(fd, SOL_SOCKET, soPeerCred, &raw, &len) })) != nil else {
            return nil
        }
        return PeerCredentials(pid: raw.0, uid: raw.1, gid: raw.2)
    }

    /// Root, the daemon's own user, or a member of `adminGroup` may change the daemon's state.
    public func mayAdminister(adminGroup: gid_t?) -> Bool {
        if uid == 0 || uid == geteuid() { return true }
        guard let admin = adminGroup else { return false }
        if gid == admin { return true }
        guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return false }
        var groups = [gid_t](repeating: 0, count: 256)
        var count = Int32(groups.count)
        if getgrouplist(name, gid, &groups, &count) < 0 { return false }
        return groups.prefix(Int(count)).contains(admin)
    }

    /// The id of a group by name.
    public static func groupID(_ name: String) -> gid_t? {
        guard let gr = getgrnam(name) else { return nil }
        return gr.pointee.gr_gid
    }
}
