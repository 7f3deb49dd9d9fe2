import CCurl
import GPSTrackCore
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One uplink's HTTP client: a libcurl share handle kept for the uplink's life, so that its
/// connection stays open between requests (each request on an easy handle of its own: see
/// curl_loader.c); every request timed, its reply capped. Used by the uplink's sender thread
/// only (a handle is never shared between threads); the handle is under a lock all the same,
/// so that the client may be handed to that thread as `Sendable`.
final class HTTPClient: Sendable {
    typealias Response = HTTPResponse

    /// The longest reply read; a longer one ends the request as failed.
    static let maxReply = 64 * 1024
    private let handle: Mutex<UnsafeMutableRawPointer?>
    let caFile: String?
    let tls: TLSFiles
    let timeoutMs: Int

    /// Loads libcurl if need be (an error naming the package if it cannot be) and makes a handle.
    init(caFile: String?, tls: TLSFiles = TLSFiles(), timeoutS: Double, place: String, key: String)
        throws(ConfigError)
    {
        try Self.loadLibrary(place: place, key: key)
        handle = Mutex(gpstrack_curl_new())
        self.caFile = caFile
        self.tls = tls
        timeoutMs = Int(clamping: timeoutS * 1000)
    }

    deinit { handle.withLock { gpstrack_curl_free($0) } }

    /// Loads libcurl (dlopen): only a daemon with an HTTP uplink configured maps it and its
    /// TLS libraries. Its absence is a configuration error naming the package.
    static func loadLibrary(place: String, key: String) throws(ConfigError) {
        var error = [CChar](repeating: 0, count: 512)
        guard gpstrack_curl_load(&error, error.count) != 0 else { return }
        let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw ConfigError(
            file: place, line: nil,
            message: "\(key) is set but libcurl cannot be loaded (\(reason)): install the package libcurl4")
    }

    /// Sends one request and waits for its reply (blocking: call it off the cooperative pool).
    func send(method: String, url: String, body: [UInt8], headers: [String], userpwd: String?) -> Response {
        handle.withLock { handle in
            perform(handle, method: method, url: url, body: body, headers: headers, userpwd: userpwd)
        }
    }

    private func perform(
        _ handle: UnsafeMutableRawPointer?, method: String, url: String, body: [UInt8], headers: [String],
        userpwd: String?
    ) -> Response {
        var reply = gpstrack_http_reply()
        let cHeaders = headers.map { strdup($0) }
        defer { for header in cHeaders { free(header) } }
        var pointers = cHeaders.map { UnsafePointer<CChar>($0) }
        let rc: Int32 = url.withCString { cURL in
            method.withCString { cMethod in
                body.withUnsafeBufferPointer { b in
                    pointers.withUnsafeMutableBufferPointer { h in
                        withOptionalCString(userpwd) { cUser in
                            withOptionalCString(caFile) { cCA in
                                withOptionalCString(tls.certFile) { cCert in
                                    withOptionalCString(tls.keyFile) { cKey in
                                        var req = gpstrack_http_request()
                                        req.url = cURL
                                        req.method = cMethod
                                        req.body = b.baseAddress.map {
                                            UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)
                                        }
                                        req.body_size = b.count
                                        req.headers = UnsafePointer(h.baseAddress)
                                        req.header_count = Int32(h.count)
                                        req.userpwd = cUser
                                        req.ca_file = cCA
                                        req.cert_file = cCert
                                        req.key_file = cKey
                                        req.connect_timeout_ms = min(10_000, timeoutMs)
                                        req.timeout_ms = timeoutMs
                                        req.max_reply = Self.maxReply
                                        return gpstrack_curl_perform(handle, &req, &reply)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        defer { free(reply.body) }
        let bytes =
            reply.body.map {
                Array(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self),
                        count: reply.body_size))
            } ?? []
        let failure: String? =
            rc == 0
            ? nil
            : tlsDiagnosis(
                code: rc,
                withUnsafeBytes(of: reply.error) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                })
        return Response(status: Int(reply.status), body: bytes, failure: failure)
    }
}

private func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}
