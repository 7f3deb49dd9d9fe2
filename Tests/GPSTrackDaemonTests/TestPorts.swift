import Foundation
import Synchronization

/// Loopback ports for the tests' servers (gpsd, brokers, HTTP servers), each reserved across
/// processes from the moment it is drawn until the test process ends.
///
/// A port is reserved by binding the abstract Unix socket `gpstrackd-test-port-<port>`: the
/// kernel gives that name to one socket at a time on the machine (in one network namespace),
/// and takes it back when the process holding it exits, however it exits, so two test
/// processes (`make test`'s shards, a second `swift test --filter`, `make test-repeat`'s runs)
/// never hand out the same port and a killed run leaves nothing behind. The descriptor is
/// close-on-exec: a server started on the port does not hold the reservation after the test.
enum TestPorts {
    /// Reservations held by this process (port to descriptor), never given back before it exits:
    /// a server a test stopped may still be in TIME_WAIT on its port.
    private static let held = Mutex<[Int: Int32]>([:])

    /// A loopback TCP port below the kernel's ephemeral range (so that no outgoing connection,
    /// the daemon's own to gpsd or a broker, can hold it when the server binds it), reserved
    /// for this process, and free to bind now.
    static func draw() -> Int {
        let range =
            (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) } ?? []
        let below = max(range.first ?? 32768, 12_000)
        while true {
            let port = Int.random(in: 10_000..<below)
            guard reserve(port) else { continue }
            // Another program on the machine, outside these tests, may have it bound.
            if LiveHarness.onLoopback(port, bind) { return port }
        }
    }

    /// Whether this process now holds `port`'s reservation (false when it, or another process,
    /// already did).
    static func reserve(_ port: Int) -> Bool {
        held.withLock { held in
            guard held[port] == nil else { return false }
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return false }
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            // An abstract name: sun_path starts with a NUL byte, no file is created.
            let name = Array("gpstrackd-test-port-\(port)".utf8)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, b) in name.enumerated() { raw[i + 1] = b }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count)
            let bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0 else {
                close(fd)
                return false
            }
            held[port] = fd
            return true
        }
    }
}
