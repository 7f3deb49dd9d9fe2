import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Says, once, when this machine forbids the daemon to reach a configured remote address (gpsd,
/// the MQTT broker, or the DNS server that names them): under systemd's `IPAddressDeny=` (or a
/// local firewall that drops output) a TCP connect does not fail, it only times out after about
/// two minutes of SYN retries, and the daemon would retry for ever without a word. A UDP
/// datagram to the same address is refused at once with EPERM, so each remote address is
/// probed with one empty datagram (to the discard port, 9). Loopback
/// addresses are not probed.
public final class NetworkAccess: Sendable {
    /// A remote party: what it is for the user ("MQTT broker"), and where.
    public struct Target: Sendable {
        public var role: String
        public var host: String
        public var port: Int
        public init(role: String, host: String, port: Int) { (self.role, self.host, self.port) = (role, host, port) }
    }

    /// Where the drop-in that allows an address goes.
    public static let dropIn = "/etc/systemd/system/gpstrackd.service.d/remote.conf"
    private let journal: Journal
    private let worker = Synchronization.Mutex<StoppableThread?>(nil)

    public init(journal: Journal) { self.journal = journal }

    /// Checks `targets` on a thread of its own (name resolution blocks), retrying every
    /// `retry` seconds a name that does not resolve yet (the network may come up later).
    public func start(_ targets: [Target], retry: Double = 30) {
        guard !targets.isEmpty else { return }
        let thread: StoppableThread
        do throws(ErrnoError) { thread = try StoppableThread() } catch {
            journal.log(
                LogEntry(
                    event: .networkCheckSkipped, priority: .info,
                    message: "Not checking whether remote addresses are allowed: \(error)"))
            return
        }
        worker.withLock { $0 = thread }
        thread.start { [self] in run(targets, retry: retry, on: thread) }
    }

    /// Ends the checks promptly.
    public func stop() async {
        await worker.withLock { $0 }?.stop()
    }

    private func run(_ targets: [Target], retry: Double, on thread: StoppableThread) {
        var left = targets
        var resolverChecked = false
        while !left.isEmpty {
            left = left.filter { target in
                switch Self.resolve(target.host, port: target.port) {
                case .success(let addresses):
                    for address in addresses where Self.forbidden(address) {
                        report(target.role, target.host, target.port, address: address)
                    }
                    return false
                case .failure:
                    // Perhaps the DNS server itself is out of reach.
                    if !resolverChecked {
                        resolverChecked = true
                        for server in Self.nameservers() {
                            guard case .success(let addresses) = Self.resolve(server, port: 53) else { continue }
                            for address in addresses where Self.forbidden(address) {
                                report("DNS server", server, 53, address: address)
                            }
                        }
                    }
                    return true
                }
            }
            if !left.isEmpty, !thread.pause(retry) { return }
        }
    }

    private func report(_ role: String, _ host: String, _ port: Int, address: String) {
        let name = host == address ? address : "\(host) (\(address))"
        journal.log(
            LogEntry(
                event: .networkForbidden, priority: .err,
                message:
                    "The \(role) \(name) port \(port) cannot be reached: this machine forbids sending to \(address) "
                    + "(sending fails with EPERM: the unit's IPAddressDeny= or a local firewall). Under systemd, allow it with a drop-in "
                    + "\(Self.dropIn) containing \"[Service]\" and \"IPAddressAllow=\(address)\", then systemctl daemon-reload "
                    + "and systemctl restart gpstrackd",
                fields: [
                    (.address, address), (.host, host), (.port, String(port)),
                    (.dropin, Self.dropIn),
                ]))
    }

    /// The numeric addresses of `host` (IPv4 and IPv6), or why not.
    static func resolve(_ host: String, port: Int) -> Result<[String], ErrnoError> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let list else {
            return .failure(ErrnoError(call: "getaddrinfo \(host)", code: rc == EAI_SYSTEM ? errno : EINVAL))
        }
        defer { freeaddrinfo(list) }
        var out: [String] = []
        var p: UnsafeMutablePointer<addrinfo>? = list
        while let a = p {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(
                a.pointee.ai_addr, a.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0
            {
                let s = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !out.contains(s) { out.append(s) }
            }
            p = a.pointee.ai_next
        }
        return .success(out)
    }

    /// Whether sending one empty UDP datagram to `address` fails with EPERM (loopback: never
    /// probed, false).
    static func forbidden(_ address: String) -> Bool {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
            if UInt32(bigEndian: v4.sin_addr.s_addr) >> 24 == 127 { return false }
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = UInt16(9).bigEndian
            return withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    probe(AF_INET, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard inet_pton(AF_INET6, address, &v6.sin6_addr) == 1, address != "::1" else { return false }
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = UInt16(9).bigEndian
        return withUnsafePointer(to: &v6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                probe(AF_INET6, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
    }

    private static func probe(_ family: Int32, _ addr: UnsafePointer<sockaddr>, _ len: socklen_t) -> Bool {
        guard
            let fd = try? syscall(
                "socket",
                {
                    socket(
                        family,
                        Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                })
        else { return false }
        defer { close(fd) }
        do {
            try syscall("sendto") { sendto(fd, nil, 0, 0, addr, len) }
            return false
        } catch {
            return error.code == EPERM
        }
    }

    /// The name servers of /etc/resolv.conf.
    static func nameservers() -> [String] {
        guard let bytes = try? FileIO.readAll("/etc/resolv.conf", maxBytes: 1 << 16) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.count >= 2 && words[0] == "nameserver" ? String(words[1]) : nil
        }
    }
}
