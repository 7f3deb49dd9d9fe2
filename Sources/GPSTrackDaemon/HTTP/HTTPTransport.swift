import GPSTrackCore

/// A server's answer to one request, or why none came.
public struct HTTPResponse: Sendable {
    /// The HTTP status; 0 when no reply came (refused, timed out, TLS failed).
    public var status: Int
    public var body: [UInt8]
    /// The transport's words when the request failed; nil on a complete reply.
    public var failure: String?
    /// A complete 2xx reply: the message may leave the outbox.
    public var succeeded: Bool { failure == nil && (200..<300).contains(status) }

    public init(status: Int, body: [UInt8] = [], failure: String? = nil) {
        self.status = status
        self.body = body
        self.failure = failure
    }
}

/// What an HTTP uplink sends through: one request, blocking, and what the server answered.
/// The daemon's is `HTTPClient` (libcurl); the in-process tests hand the uplinks one that
/// answers in memory (`Uplinks.make(..., transport:)`).
public protocol HTTPTransport: Sendable {
    func send(method: String, url: String, body: [UInt8], headers: [String], userpwd: String?) -> HTTPResponse
}

extension HTTPTransport {
    func send(method: String, url: String, body: [UInt8], headers: [String]) -> HTTPResponse {
        send(method: method, url: url, body: body, headers: headers, userpwd: nil)
    }
}

extension HTTPClient: HTTPTransport {}

extension HTTPClient {
    /// The transport an uplink sends through: `given` (a test's in-memory server), else a
    /// libcurl client, loaded here (its absence a configuration error at `place`, for `key`).
    static func transport(
        _ given: (any HTTPTransport)?, caFile: String?, tls: TLSFiles, timeoutS: Double, place: String, key: String
    ) throws(ConfigError) -> any HTTPTransport {
        if let given { return given }
        return try HTTPClient(caFile: caFile, tls: tls, timeoutS: timeoutS, place: place, key: key)
    }
}
