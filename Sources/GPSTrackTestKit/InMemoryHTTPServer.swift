import GPSTrackDaemon
import GPSTrackProtocol
import Synchronization

/// A fake: the HTTP servers of the in-process tests, answering each uplink's requests in memory
/// (`TrackerHarness(transport:)`) with a status of the test's choosing. The live suites keep
/// libcurl and a real server process as the adapters' proof; this one lets an in-process test
/// see what each uplink sends.
public final class InMemoryHTTPServer: Sendable {
    /// One request as the uplink sent it.
    public struct Request: Sendable {
        public var uplink: UplinkName
        public var method: String
        public var url: String
        public var body: String
        public var headers: [String]
    }

    private let state = Mutex<(requests: [Request], status: Int)>(([], 200))

    public init() {}

    /// The transport for `uplink` (the HTTP ones: Traccar, OwnTracks HTTP, the webhook).
    public func transport(_ uplink: UplinkName) -> any HTTPTransport { Transport(server: self, uplink: uplink) }

    /// What every later request is answered with (200 at first; 503 for a server that is down).
    public func answer(_ status: Int) { state.withLock { $0.status = status } }

    /// The requests so far, in order, of `uplink` (every uplink's when nil).
    public func requests(_ uplink: UplinkName? = nil) -> [Request] {
        state.withLock { s in s.requests.filter { uplink == nil || $0.uplink == uplink } }
    }

    fileprivate func take(_ request: Request) -> HTTPResponse {
        state.withLock { s in
            s.requests.append(request)
            // An OwnTracks server answers with a JSON array (of commands): none.
            return HTTPResponse(status: s.status, body: Array("[]".utf8))
        }
    }

    private struct Transport: HTTPTransport {
        let server: InMemoryHTTPServer
        let uplink: UplinkName
        func send(method: String, url: String, body: [UInt8], headers: [String], userpwd: String?) -> HTTPResponse {
            server.take(
                Request(
                    uplink: uplink, method: method, url: url, body: String(decoding: body, as: UTF8.self),
                    headers: headers))
        }
    }
}
