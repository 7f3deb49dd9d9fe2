#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to gpsd that a stop can interrupt. libgps's `gps_open` blocks in
/// connect(2), and for a host that drops packets (a remote gpsd behind a dead link, a firewall)
/// that is the kernel's SYN retries, about two minutes, during which the daemon could neither
/// stop nor say anything. Here each of the name's addresses is tried in turn with a
/// non-blocking connect, waited on together with the stop pipe and for at most `timeout`; then
/// the request libgps's `gps_stream(WATCH_ENABLE | WATCH_JSON)` sends goes out.
struct GPSDConnection {
    /// The connected socket: non-blocking, close-on-exec. `close()` releases it.
    let fd: Int32

    /// How an attempt ended.
    enum Outcome {
        case connected(GPSDConnection)
        /// Why no address answered (for the `lost` report).
        case failed(String)
        /// The stop pipe woke the wait.
        case stopped
    }

    /// Seconds one address may take to answer: far more than any link that can carry gpsd's
    /// reports needs, far less than the kernel's retries.
    static let timeout = 10.0

    /// What libgps writes for WATCH_ENABLE | WATCH_JSON (libgps_sock.c).
    static let watchRequest = Array(#"?WATCH={"enable":true,"json":true};"#.utf8)

    /// Connects to `host`:`port` and asks for reports, on `worker`'s thread: its stop ends
    /// the wait. `beat` is called at least every `beatInterval` seconds while waiting (the
    /// watchdog). The name lookup itself is getaddrinfo(3), bounded by the resolver's own
    /// timeouts.
    static func open(
        host: String, port: Int, worker: StoppableThread,
        beatInterval: Double, beat: () -> Void
    ) -> Outcome {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &found)
        guard rc == 0, let first = found else {
            return .failed("cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(first) }
        var why = "no address for \(host)"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            switch attempt(address.pointee, worker: worker, beatInterval: beatInterval, beat: beat) {
            case .connected(let connection): return .connected(connection)
            case .stopped: return .stopped
            case .failed(let reason): why = reason
            }
        }
        return .failed(why)
    }

    private static func attempt(
        _ address: addrinfo, worker: StoppableThread,
        beatInterval: Double, beat: () -> Void
    ) -> Outcome {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd: Int32
        do { fd = try syscall("socket") { socket(address.ai_family, type, address.ai_protocol) } } catch {
            return .failed(String(cString: strerror(error.code)))
        }
        let connection = GPSDConnection(fd: fd)
        // A non-blocking connect reports EINPROGRESS; one interrupted by a signal goes on in
        // the background just the same (connect(2)): both are waited for below.
        if connect(fd, address.ai_addr, address.ai_addrlen) < 0, errno != EINPROGRESS, errno != EINTR {
            let code = errno
            connection.close()
            return .failed(String(cString: strerror(code)))
        }
        switch worker.wait(for: fd, events: Int16(POLLOUT), seconds: timeout, beatEvery: beatInterval, beat: beat) {
        case .stopped:
            connection.close()
            return .stopped
        case .timedOut:
            connection.close()
            return .failed("no answer in \(Int(clamping: timeout, rounding: .towardZero)) s")
        case .ready: break
        }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) < 0 { code = errno }
        guard code == 0 else {
            connection.close()
            return .failed(String(cString: strerror(code)))
        }
        // A fresh socket's send buffer takes these 35 bytes whole.
        let sent =
            (try? syscall("write to gpsd") { watchRequest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } })
            ?? -1
        guard sent == watchRequest.count else {
            connection.close()
            return .failed("cannot send WATCH to gpsd")
        }
        return .connected(connection)
    }

    /// Closes the socket.
    func close() { _ = Glibc.close(fd) }
}
