import GPSTrackCore

/// What a TLS failure of an uplink's request says: libcurl's words alone ("SSL certificate
/// problem: unable to get local issuer certificate") do not name the setting to look at.
extension HTTPClient {
    /// A client certificate and its key (PEM files), both or neither.
    struct TLSFiles: Sendable, Equatable {
        var certFile: String?
        var keyFile: String?
        /// The key that set the CA file, for the journal (`traccar_ca_file`).
        var caKey = ""
    }

    /// libcurl's codes of a failed TLS handshake or verification (curl.h's CURLE_SSL_*,
    /// CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CLIENTCERT).
    static let tlsCodes: Set<Int32> = [35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98]

    /// `words` as the failure to journal: a TLS failure says so and names what verified the
    /// server (the CA file's key and path, or the system's CAs) and the client certificate.
    /// A server refusing the client's certificate in TLS 1.3 does so after the handshake, as
    /// an alert libcurl reads as a receive error (56, "OpenSSL SSL_read: ... alert certificate
    /// required"): that too is a TLS failure.
    func tlsDiagnosis(code: Int32, _ words: String) -> String {
        // Word by word: String's own contains(_:) would link in _StringProcessing's regex engine.
        let ssl = words.split(separator: " ").contains { $0.hasPrefix("SSL") }
        guard Self.tlsCodes.contains(code) || (code == 56 && ssl) else { return words }
        let ca = caFile.map { "\(tls.caKey.isEmpty ? "CA file" : tls.caKey) \($0)" } ?? "the system's CAs"
        let cert = tls.certFile.map { ", client certificate \($0)" } ?? ", no client certificate"
        return "TLS failure: \(words) (server verified against \(ca)\(cert))"
    }

    /// Each file a TLS key names must be readable at the start: an error naming the key's
    /// place otherwise (the daemon does not start on a certificate it cannot read).
    static func checkReadable(_ files: [(key: String, file: String?)], configuration: Configuration, configFile: String)
        throws(ConfigError)
    {
        for (key, file) in files {
            guard let file else { continue }
            do { _ = try FileIO.readAll(file, maxBytes: 1 << 20) } catch {
                throw ConfigError(
                    file: configuration.origins[key] ?? configFile, line: nil,
                    message: "\(key) \(file): cannot read: \(error)")
            }
        }
    }
}
