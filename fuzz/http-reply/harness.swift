// libFuzzer harness: HTTP replies as the uplinks read them. A server on the loopback answers
// each request of the uplinks' own client (`HTTPClient`, libcurl, the uplink's kept share) with
// bytes the input chooses: with an odd first byte the rest as the whole reply (status line,
// headers, body: whatever a hostile server sends); with an even one a reply built from it, a
// status from the next two bytes, a Content-Length that may lie, chunked or not, then the rest
// as the body. The client's response then goes where a sender takes it: the text the journal
// and `status` show of a refusal (`UplinkSender.text`), and, for a 2xx, the OwnTracks HTTP
// reader of commands (`OwnTracksHTTPCommands.read`) in plaintext and with a secret, each
// command run on a tracker with every action allowed. Properties: no crash, trap or hang; a
// response's body within the client's cap; the text shown printable and short.
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Synchronization

@testable import GPSTrackDaemon

#if canImport(Glibc)
import Glibc
#endif

struct Quiet: JournalBackend { func send(_ entry: LogEntry) {} }

/// What the server answers the next request with.
let nextReply = Mutex<[UInt8]>([])

/// A one-thread HTTP server on 127.0.0.1: reads a request (headers and Content-Length bytes),
/// writes `nextReply`, and closes.
func startServer() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
    }
    guard bound, listen(fd, 16) == 0 else { fatalError("the fuzz server cannot listen: \(errno)") }
    _ = NativeThread {
        while true {
            let c = accept(fd, nil, nil)
            guard c >= 0 else { continue }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var request: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 4096)
            while true {
                if let end = request.firstRange(of: Array("\r\n\r\n".utf8)) {
                    let head = String(decoding: request[..<end.lowerBound], as: UTF8.self).lowercased()
                    let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst(15).trimmingPrefix(" ")) } ?? 0
                    if request.count - end.upperBound >= length { break }
                }
                guard let n = try? syscall("recv", { recv(c, &buf, buf.count, 0) }), n > 0 else { break }
                request += buf[0..<n]
            }
            let reply = nextReply.withLock { $0 }
            _ = reply.withUnsafeBytes { r in try? syscall("send") { send(c, r.baseAddress, r.count, Int32(MSG_NOSIGNAL)) } }
            shutdown(c, Int32(SHUT_WR))
            close(c)
        }
    }
    return UInt16(bigEndian: addr.sin_port)
}

/// The reply the input describes.
func reply(_ bytes: [UInt8]) -> [UInt8] {
    guard let shape = bytes.first else { return [] }
    var rest = Array(bytes.dropFirst())
    if shape & 1 == 1 { return rest }
    let status = rest.count >= 2 ? (Int(rest[0]) << 8 | Int(rest[1])) % 1000 : 200
    rest = Array(rest.dropFirst(2))
    var head = "HTTP/1.1 \(shape & 2 == 0 ? 200 : status) Fuzz\r\nContent-Type: application/json\r\n"
    if shape & 4 != 0 {
        // Chunked: the body in chunks of the sizes its own bytes say (a size may lie).
        var body: [UInt8] = []
        var at = 0
        while at < rest.count {
            let n = Int(rest[at] % 64) + (shape & 8 == 0 ? 0 : 1)
            let piece = rest[min(at + 1, rest.count)..<min(at + 1 + n, rest.count)]
            body += Array("\(String(n, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8)
            at += 1 + n
        }
        head += "Transfer-Encoding: chunked\r\n\r\n"
        return Array(head.utf8) + body + Array("0\r\n\r\n".utf8)
    }
    let length = shape & 8 == 0 ? rest.count : rest.count + Int(shape >> 4) - 8
    head += "Content-Length: \(length)\r\n\r\n"
    return Array(head.utf8) + rest
}

/// The tracker and the two readers of commands (plaintext, and with a secret).
struct Rig {
    let client: HTTPClient
    let url: String
    let service: TrackerService
    let plain: OwnTracksHTTPCommands
    let sealed: OwnTracksHTTPCommands
}
nonisolated(unsafe) var rig: Rig?

func setUp() -> Rig {
    if let rig { return rig }
    let port = startServer()
    var config = Configuration()
    config.mqtt.commands = true
    config.mqtt.commandAllow = MQTTConfig.commandActions
    config.stateDirectory = (getenv("GPSTRACK_FUZZ_DIR").map { String(cString: $0) } ?? "/tmp") + "/gpstrackd-fuzz-http-\(getpid())"
    mkdir(config.stateDirectory, 0o700)
    let journal = Journal(backend: Quiet())
    let service = try! TrackerService(configuration: config, fences: nil, journal: journal)
    func channel(_ crypto: OwnTracksCrypto?) -> OwnTracksHTTPCommands {
        let outbox = Outbox(
            uplink: "owntracks_http", databasePath: config.stateDirectory + "/gpstrackd.db", limit: 100)
        let sender = try! UplinkSender(name: "owntracks_http", outbox: outbox, journal: journal)
        let c = OwnTracksHTTPCommands(config: config.mqtt, sender: sender, journal: journal, crypto: crypto)
        c.setHandler { [c] commands in run(service, commands, c) }
        return c
    }
    let made = Rig(
        client: try! HTTPClient(caFile: nil, timeoutS: 2, place: "fuzz", key: "owntracks_http_url"),
        url: "http://127.0.0.1:\(port)/pub", service: service, plain: channel(nil),
        sealed: channel(try! OwnTracksCrypto(secret: Array("fuzzing secret".utf8))))
    rig = made
    return made
}

/// Runs commands on the tracker's actor and waits for them (the fuzzer's thread is no pool thread).
func run(_ service: TrackerService, _ commands: [InboundCommand], _ channel: OwnTracksHTTPCommands) {
    let done = Atomic<Bool>(false)
    Task {
        await service.commands(commands, from: channel)
        done.store(true, ordering: .releasing)
    }
    while !done.load(ordering: .acquiring) { usleep(50) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let rig = setUp()
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    nextReply.withLock { $0 = reply(bytes) }
    let r = rig.client.send(
        method: "POST", url: rig.url, body: Array(#"{"_type":"location"}"#.utf8),
        headers: ["Content-Type: application/json", "X-Limit-U: fuzz", "X-Limit-D: box"])
    guard r.body.count <= HTTPClient.maxReply else { fatalError("a body of \(r.body.count) bytes passed the cap") }
    let text = UplinkSender.text(r.body)
    guard text.count <= 200, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
        fatalError("the text shown of a reply is not short and printable: \(text.debugDescription)")
    }
    if r.succeeded {
        rig.plain.read(r.body)
        rig.sealed.read(r.body)
    }
    return 0
}
