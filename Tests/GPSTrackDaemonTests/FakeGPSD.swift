import Foundation

/// A stand-in for gpsd on loopback, for lines a real gpsd never sends: it accepts one client,
/// greets it with VERSION, waits for its `?WATCH`, then sends `lines` (each as given: the
/// caller writes the line ends it wants) with `gap` seconds between them, and keeps the
/// connection open until stopped.
final class FakeGPSD: Sendable {
    /// What the server thread and the test share.
    final class State: @unchecked Sendable {  // every access holds `lock`
        private let lock = NSLock()
        private var stopped = false
        private var watched = false
        var isStopped: Bool { lock.withLock { stopped } }
        var sawWatch: Bool { lock.withLock { watched } }
        func stop() { lock.withLock { stopped = true } }
        func watch() { lock.withLock { watched = true } }
    }

    let port: Int
    let state = State()
    private let listener: Int32

    init(lines: [String], gap: Double) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        let state = self.state
        Thread.detachNewThread {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            func send(_ s: String) {
                let bytes = Array(s.utf8)
                _ = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            send(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\r\n")
            var got = [UInt8]()
            var buf = [UInt8](repeating: 0, count: 1024)
            while !String(decoding: got, as: UTF8.self).contains("?WATCH") {
                let n = recv(client, &buf, buf.count, 0)
                guard n > 0 else { return }
                got += buf[0..<n]
            }
            state.watch()
            for line in lines {
                if state.isStopped { return }
                send(line)
                usleep(UInt32(gap * 1_000_000))  // paces the feed, as a receiver's epochs (not a wait)
            }
            while !state.isStopped { usleep(50_000) }  // polls for the stop
        }
    }

    func stop() {
        state.stop()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
