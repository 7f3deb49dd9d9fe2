import CSodium
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// OwnTracks' payload encryption, as its apps, Home Assistant and the OwnTracks Recorder read
/// it: libsodium's `crypto_secretbox` (XSalsa20-Poly1305) under the shared secret zero-padded
/// (or cut) to 32 bytes, a fresh random 24-byte nonce per message, sent as
/// `{"_type":"encrypted","data":"<base64 of nonce ‖ ciphertext>"}`. libsodium is loaded only
/// when a secret is configured.
public struct OwnTracksCrypto: Sendable {
    static let keyBytes = 32, nonceBytes = 24, macBytes = 16
    let key: [UInt8]

    /// Why an inbound message was refused.
    public enum Refusal: Error, Equatable, Sendable {
        case notEncrypted
        case malformed(String)
        /// The MAC did not verify: a wrong key, or the message was changed.
        case wrongKey
    }

    /// How many bytes the secret had: one shorter than the key is zero-padded, as OwnTracks
    /// does (kept for compatibility), and weaker for it; the daemon warns at start.
    public let secretBytes: Int

    /// The key from a secret: its bytes, zero-padded or cut to 32.
    public init(secret: [UInt8]) throws(ConfigError) {
        try Self.loadLibrary(place: "mqtt_secret_file")
        key = Array((secret + [UInt8](repeating: 0, count: Self.keyBytes)).prefix(Self.keyBytes))
        secretBytes = secret.count
    }

    /// Loads libsodium; its absence is a configuration error naming the package.
    static func loadLibrary(place: String) throws(ConfigError) {
        var error = [CChar](repeating: 0, count: 512)
        guard gpstrack_sodium_load(&error, error.count) != 0 else { return }
        let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw ConfigError(
            file: place, line: nil,
            message: "a secret is set but libsodium cannot be loaded (\(reason)): install the package libsodium23")
    }

    /// The encrypted message for `plaintext` (an OwnTracks JSON payload).
    public func seal(_ plaintext: [UInt8]) -> String {
        var nonce = [UInt8](repeating: 0, count: Self.nonceBytes)
        dl_randombytes_buf(&nonce, nonce.count)
        var box = [UInt8](repeating: 0, count: plaintext.count + Self.macBytes)
        _ = dl_crypto_secretbox_easy(&box, plaintext, UInt64(plaintext.count), nonce, key)
        return ReplyEncoder.encode(BrokerMessage.Encrypted(data: Base64.encode(nonce + box)))
    }

    /// The plaintext of an encrypted message, or why it is refused.
    public func open(_ message: [UInt8]) -> Result<[UInt8], Refusal> {
        openWithNonce(message).map(\.plain)
    }

    /// The plaintext of an encrypted message and its nonce (what a replay repeats), or why it
    /// is refused.
    public func openWithNonce(_ message: [UInt8]) -> Result<(plain: [UInt8], nonce: [UInt8]), Refusal> {
        guard let json = try? JSONValue.parse(message), json["_type"]?.string == "encrypted" else {
            return .failure(.notEncrypted)
        }
        guard let text = json["data"]?.string, let data = Base64.decode(text) else {
            return .failure(.malformed("data is not base64"))
        }
        guard data.count >= Self.nonceBytes + Self.macBytes else { return .failure(.malformed("data is too short")) }
        let nonce = Array(data.prefix(Self.nonceBytes))
        let box = Array(data.dropFirst(Self.nonceBytes))
        var plain = [UInt8](repeating: 0, count: box.count - Self.macBytes)
        guard dl_crypto_secretbox_open_easy(&plain, box, UInt64(box.count), nonce, key) == 0 else {
            return .failure(.wrongKey)
        }
        return .success((plain, nonce))
    }
}

/// RFC 4648 base64 with padding, as OwnTracks sends it.
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let b0 = UInt32(bytes[i])
            let b1 = n > 1 ? UInt32(bytes[i + 1]) : 0
            let b2 = n > 2 ? UInt32(bytes[i + 2]) : 0
            let v = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(n > 1 ? alphabet[Int(v >> 6 & 63)] : UInt8(ascii: "="))
            out.append(n > 2 ? alphabet[Int(v & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text`, or nil for anything but canonical padded base64.
    static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var values: [UInt8] = []
        values.reserveCapacity(chars.count)
        for (k, c) in chars.enumerated() {
            if c == UInt8(ascii: "=") {
                guard k >= chars.count - 2, chars[k...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return nil }
                continue
            }
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            values.append(UInt8(v))
        }
        var out: [UInt8] = []
        var i = 0
        while i + 1 < values.count {
            let n = min(4, values.count - i)
            var v: UInt32 = 0
            for j in 0..<4 { v = v << 6 | (j < n ? UInt32(values[i + j]) : 0) }
            out.append(UInt8(v >> 16 & 255))
            if n > 2 { out.append(UInt8(v >> 8 & 255)) }
            if n > 3 { out.append(UInt8(v & 255)) }
            i += 4
        }
        return out
    }
}
