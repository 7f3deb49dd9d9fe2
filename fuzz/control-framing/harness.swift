// libFuzzer harness: the control socket's framing on a real ControlServer (a Unix socket, its
// poll thread). The input is written to it in pieces whose sizes the input's first bytes choose
// (partial lines, many lines in one write, long lines, floods), each request answered by a
// stand-in for the tracker; the client then hangs up its side and reads what comes. Properties:
// no crash or hang; no more replies than lines; the server still answers a fresh client.
// The client's calls go through `syscall`, which retries on EINTR: libFuzzer's SIGALRM (its
// -timeout watch, every 3 s) interrupts a blocking recv on a socket with SO_RCVTIMEO even
// under SA_RESTART (signal(7)), and a fresh client's interrupted recv once read as "not
// answered" (the finding of 2026-12-03). A property that fails says which, with fatalError:
// -O drops a precondition's message.
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Synchronization

@testable import GPSTrackDaemon

#if canImport(Glibc)
import Glibc
#endif

struct Quiet: JournalBackend { func send(_ entry: LogEntry) {} }

nonisolated(unsafe) var server: ControlServer?
let path = (getenv("GPSTRACK_FUZZ_DIR").map { String(cString: $0) } ?? "/tmp") + "/gpstrackd-fuzz-control-\(getpid()).sock"

func setUp() -> ControlServer {
    if let server { return server }
    var config = Configuration()
    config.socketGroup = "root"
    let made = try! ControlServer(path: path, config: config, journal: Journal(backend: Quiet()))
    let requests = made.start()
    // The tracker's stand-in: every request answered at once.
    Task {
        for await r in requests { made.reply(client: r.client, line: ControlError("fuzz").line) }
    }
    server = made
    return made
}

func connectClient() -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
    let ok = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard ok == 0 else { fatalError("the server does not take a connection: \(String(cString: strerror(errno)))") }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    return fd
}

/// Reads until EOF, an error or the timeout; the number of lines read.
func readLines(_ fd: Int32) -> Int {
    var lines = 0
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        guard let n = try? syscall("recv", { recv(fd, &buf, buf.count, 0) }), n > 0 else { return lines }
        lines += buf[0..<n].filter { $0 == 10 }.count
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = setUp()
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    // The first byte: a flood factor (the rest repeated up to 64 times, up to 4 MiB in all).
    let body = Array(bytes.dropFirst())
    let times = body.isEmpty ? 1 : min(Int(first % 64) + 1, max(1, (4 << 20) / body.count))
    let input = (0..<times).flatMap { _ in body }
    let fd = connectClient()
    defer { close(fd) }
    // Pieces of 1 to 256 bytes by the body's own bytes: lines cut anywhere.
    var at = 0
    var k = 0
    while at < input.count {
        let piece = body.isEmpty ? 1 : Int(body[k % body.count]) + 1
        let end = min(input.count, at + piece)
        let n = input[at..<end].withUnsafeBytes { piece in
            (try? syscall("send") { send(fd, piece.baseAddress, piece.count, Int32(MSG_NOSIGNAL)) }) ?? 0
        }
        if n <= 0 { break }  // closed by the server (a line too long): the rest is not read
        at += n
        k += 1
    }
    shutdown(fd, Int32(SHUT_WR))
    let replies = readLines(fd)
    let lines = input.filter { $0 == 10 }.count
    guard replies <= lines + 1 else { fatalError("\(replies) replies to \(lines) lines") }
    let fresh = connectClient()
    defer { close(fresh) }
    let status = Array(#"{"cmd":"status"}"#.utf8) + [10]
    _ = status.withUnsafeBytes { line in
        try? syscall("send") { send(fresh, line.baseAddress, line.count, Int32(MSG_NOSIGNAL)) }
    }
    var one = [UInt8](repeating: 0, count: 256)
    do throws(ErrnoError) {
        guard try syscall("recv", { recv(fresh, &one, one.count, 0) }) > 0 else {
            fatalError("a fresh client is not answered after the input: the server hung up")
        }
    } catch {
        fatalError("a fresh client is not answered after the input: \(error)")
    }
    return 0
}
