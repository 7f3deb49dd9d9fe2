import CMosquitto

#if canImport(Glibc)
import Glibc
#endif

/// Why a TLS connection to the broker failed, said once per problem and outage: libmosquitto
/// tells only its log callback, with OpenSSL's reason; the broker certificate's verification
/// result is read from the handshake's SSL object while it still exists.
extension MQTTPublisher {
    /// An error libmosquitto logged: a failed TLS handshake becomes one `mqtt_tls_failed` entry
    /// per problem and outage, naming the certificate problem and the key to check.
    func onLibraryError(_ text: String, verifyResult: Int?) {
        guard text.hasPrefix("OpenSSL Error") else { return }
        if let verifyResult, verifyResult > 0 {  // X509_V_OK is 0; -1: libssl not loaded
            let why = String(cString: dl_X509_verify_cert_error_string(verifyResult))
            tlsProblem(
                "the broker's certificate failed verification: \(why) (mqtt_ca_file \(config.caFile ?? "unset"))")
        } else {
            // OpenSSL's reason, e.g. "tlsv1 alert unknown ca" (the broker does not trust ours).
            tlsProblem(
                "the TLS connection failed: \(text.split(separator: ":", omittingEmptySubsequences: false).last.map { String($0).trimmingSpaces } ?? text)"
            )
        }
    }

    /// Sets up TLS when `mqtt_ca_file` asks for it; whether the client may connect. A failure
    /// (a file that vanished or turned unreadable since the start-up check) is logged once a
    /// problem, kept for `status`, and leaves the client unconnected: a failed
    /// `mosquitto_tls_set` has dropped the CA, and a connection then would go in plaintext.
    func setUpTLS(_ m: OpaquePointer) -> Bool {
        guard let ca = config.caFile else { return true }
        let rc = dl_mosquitto_tls_set(m, ca, nil, config.certFile, config.keyFile, nil)
        guard rc != MOSQ_ERR_SUCCESS.rawValue else {
            guarded.withLock { $0.tlsFailure = nil }
            return true
        }
        let files =
            "mqtt_ca_file \(ca)"
            + (config.certFile.map { ", mqtt_cert_file \($0), mqtt_key_file \(config.keyFile ?? "")" } ?? "")
        let reason = String(cString: dl_mosquitto_strerror(rc))
        let why = "TLS could not be set up (\(reason)): check \(files); not connecting without it"
        guarded.withLock { $0.tlsFailure = why }
        tlsProblem(why)
        return false
    }

    /// Logs a TLS problem once per outage; a broker's alert about our certificate names the
    /// keys to check.
    func tlsProblem(_ description: String) {
        let broker = "\(config.host ?? ""):\(config.port)"
        var problem = description
        if ["certificate required", "unknown ca", "bad certificate", "certificate unknown", "handshake failure"]
            .contains(where: description.hasSubstring)
        {
            problem +=
                " (our client certificate: mqtt_cert_file \(config.certFile ?? "unset"), mqtt_key_file \(config.keyFile ?? "unset"))"
        }
        guarded.withLock { s in
            s.inOutage = true
            guard s.tlsProblems.insert(problem).inserted else { return }
            journal.log(
                LogEntry(
                    event: .mqttTlsFailed, priority: .err, message: "MQTT \(broker): \(problem); retrying",
                    fields: [(.broker, broker), (.tlsError, problem)]))
        }
    }
}

extension String {
    /// Whether `part` occurs in the text: the standard library's `contains(_:)` for strings
    /// lives in _StringProcessing, whose regular-expression engine (about 1 MB of code) would
    /// then be linked into the daemon for this one call.
    func hasSubstring(_ part: String) -> Bool {
        let text = Array(utf8)
        let needle = Array(part.utf8)
        guard needle.count <= text.count else { return false }
        return (0...(text.count - needle.count)).contains { text[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
