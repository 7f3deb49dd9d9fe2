import GPSTrackCore
import GPSTrackProtocol

/// The MQTT channel's secrets: the password and OwnTracks' encryption secret read from their
/// files, commands opened (or refused, logged once a kind a spell).
extension MQTTPublisher {
    /// The password: the file's first line (LF or CRLF ends it), non-empty UTF-8 without
    /// control characters.
    static func password(from bytes: [UInt8]) -> Result<String, PasswordProblem> {
        var line = bytes.prefix { $0 != 10 }
        if line.last == 13 { line = line.dropLast() }
        guard !line.isEmpty else { return .failure(PasswordProblem(message: "the first line is empty")) }
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(PasswordProblem(message: "not UTF-8 text"))
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return .failure(PasswordProblem(message: "a control character (or NUL byte) in the password"))
        }
        return .success(text)
    }

    struct PasswordProblem: Error { var message: String }

    /// The encryption for `mqtt_secret_file`, if set: its first line is the secret.
    /// `warn` is where a short secret is said (nil: another channel with the same secret said it).
    static func crypto(_ file: String?, place: String, warn journal: Journal?) throws(ConfigError) -> OwnTracksCrypto? {
        guard let file else { return nil }
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(file, maxBytes: 4096, regularOnly: true) } catch {
            throw ConfigError(file: place, line: nil, message: "mqtt_secret_file \(file): cannot read: \(error)")
        }
        switch password(from: bytes) {
        case .success(let secret):
            let crypto: OwnTracksCrypto
            do { crypto = try OwnTracksCrypto(secret: Array(secret.utf8)) } catch {
                throw ConfigError(file: place, line: nil, message: error.message)
            }
            if let journal, crypto.secretBytes < OwnTracksCrypto.keyBytes {
                // Zero-padded to the key's 32 bytes as OwnTracks does (for its apps to read us):
                // a short secret is a weak key, said at start, not refused.
                journal.log(
                    LogEntry(
                        event: .mqttSecretShort, priority: .warning,
                        message:
                            "mqtt_secret_file \(file): the secret has \(crypto.secretBytes) bytes, fewer than the key's "
                            + "\(OwnTracksCrypto.keyBytes); it is zero-padded as OwnTracks does, and weaker for it: "
                            + "use a random secret of 32 bytes or more",
                        fields: [(.secretBytes, String(crypto.secretBytes))]))
            }
            return crypto
        case .failure(let problem):
            throw ConfigError(file: place, line: nil, message: "mqtt_secret_file \(file): \(problem.message)")
        }
    }

    /// A command's plaintext: as it came without a secret; with one, opened, and refused
    /// (logged once a kind until a good one comes) when plaintext, under another key or malformed.
    func opened(_ payload: [UInt8]) -> InboundCommand? {
        guard let crypto else { return InboundCommand(payload: payload) }
        switch crypto.openWithNonce(payload) {
        case .success(let (plain, nonce)):
            guarded.withLock { $0.refusalsLogged = [] }
            return InboundCommand(payload: plain, nonce: nonce)
        case .failure(let refusal):
            let why: String
            switch refusal {
            case .notEncrypted: why = "not encrypted, and mqtt_secret_file is set"
            case .wrongKey: why = "it does not open with our secret (another key, or changed on the way)"
            case .malformed(let what): why = "an encrypted message whose \(what)"
            }
            guarded.withLock { s in
                guard s.refusalsLogged.insert(why).inserted else { return }
                journal.log(
                    LogEntry(
                        event: .mqttCommandRefused, priority: .warning,
                        message: "MQTT command on \(baseTopic)/cmd refused: \(why)",
                        fields: [(.reason, why)]))
            }
            return nil
        }
    }
}
