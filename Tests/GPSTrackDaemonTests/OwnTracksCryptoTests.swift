import Foundation
import Testing

@testable import GPSTrackDaemon

/// OwnTracks' payload encryption checked by an independent implementation: PyNaCl (Debian's
/// python3-nacl, libsodium's Python binding) opens what gpstrackd sealed, gpstrackd opens what
/// PyNaCl sealed, and a wrong key or a changed message is refused.
@Suite struct OwnTracksCryptoTests {
    static let python = "/usr/bin/python3"
    static var haveNaCl: Bool {
        (try? ExecutableRunner.run(["-c", "import nacl.secret"], executable: python).status) == 0
    }
    /// PyNaCl's side: the key is the secret zero-padded to 32 bytes, as OwnTracks' apps make it.
    static let script = """
        import base64, json, sys, nacl.secret, nacl.utils
        key = sys.argv[2].encode()[:32].ljust(32, b"\\0")
        box = nacl.secret.SecretBox(key)
        if sys.argv[1] == "open":
            for line in sys.stdin:
                m = json.loads(line)
                assert m["_type"] == "encrypted", m
                print(box.decrypt(base64.b64decode(m["data"])).decode())
        else:
            for line in sys.stdin:
                data = box.encrypt(line.rstrip("\\n").encode(), nacl.utils.random(24))
                print(json.dumps({"_type": "encrypted", "data": base64.b64encode(bytes(data)).decode()}))
        """

    static func nacl(_ mode: String, key: String, input: String) throws -> [String] {
        let r = try ExecutableRunner.run(["-c", script, mode, key], stdin: Data(input.utf8), executable: python)
        try #require(r.status == 0, "PyNaCl \(mode): \(r.stderr)")
        return r.lines
    }

    static let payloads = [
        #"{"_type":"location","lat":52.516313811,"lon":13.377692237,"tst":1773475201,"acc":5,"tid":"gt"}"#,
        #"{"_type":"transition","event":"enter","desc":"Brandenburg Gate \"Tor\" ü","tst":1773475201}"#,
        "x", "xy", "xyz", "wxyz",
    ]

    @Test(.enabled(if: haveNaCl, "python3-nacl is installed by `make test`"))
    func pyNaClOpensWhatGpstrackdSealsAndTheReverse() throws {
        let crypto = try OwnTracksCrypto(secret: Array("correct horse".utf8))
        let sealed = Self.payloads.map { crypto.seal(Array($0.utf8)) }
        // A fresh nonce every message, the same plaintext included.
        let nonces = (sealed + [crypto.seal(Array("x".utf8)), crypto.seal(Array("x".utf8))]).map { message -> Data in
            let data = Data(base64Encoded: ExecutableRunner.json(message)?["data"] as? String ?? "") ?? Data()
            return data.prefix(24)
        }
        #expect(Set(nonces).count == nonces.count && nonces.allSatisfy { $0.count == 24 && $0 != Data(count: 24) })
        let opened = try Self.nacl("open", key: "correct horse", input: sealed.joined(separator: "\n") + "\n")
        #expect(opened == Self.payloads)

        let fromNaCl = try Self.nacl("seal", key: "correct horse", input: Self.payloads.joined(separator: "\n") + "\n")
        try #require(fromNaCl.count == Self.payloads.count)
        for (message, payload) in zip(fromNaCl, Self.payloads) {
            #expect(crypto.open(Array(message.utf8)) == .success(Array(payload.utf8)))
        }
        // A key of 32 bytes or more is cut to 32 on both sides.
        let long = String(repeating: "k", count: 40)
        let longCrypto = try OwnTracksCrypto(secret: Array(long.utf8))
        #expect(try Self.nacl("open", key: long, input: longCrypto.seal(Array("hi".utf8)) + "\n") == ["hi"])
    }

    @Test(.enabled(if: haveNaCl, "python3-nacl is installed by `make test`"))
    func aWrongKeyAChangedMessageOrPlaintextIsRefused() throws {
        let crypto = try OwnTracksCrypto(secret: Array("correct horse".utf8))
        let other = try Self.nacl("seal", key: "battery staple", input: #"{"_type":"cmd","action":"dump"}"# + "\n")
        #expect(crypto.open(Array(other[0].utf8)) == .failure(.wrongKey))
        // One bit of the ciphertext flipped: the MAC does not verify.
        let sealed = crypto.seal(Array("hello".utf8))
        let json = try #require(ExecutableRunner.json(sealed))
        var data = try #require(Data(base64Encoded: json["data"] as? String ?? ""))
        data[data.count - 1] ^= 1
        let changed = #"{"_type":"encrypted","data":""# + data.base64EncodedString() + #""}"#
        #expect(crypto.open(Array(changed.utf8)) == .failure(.wrongKey))
        #expect(crypto.open(Array(#"{"_type":"cmd","action":"dump"}"#.utf8)) == .failure(.notEncrypted))
        #expect(
            crypto.open(Array(#"{"_type":"encrypted","data":"not base64!"}"#.utf8))
                == .failure(.malformed("data is not base64")))
        #expect(
            crypto.open(Array(#"{"_type":"encrypted","data":"AAAA"}"#.utf8))
                == .failure(.malformed("data is too short")))
        #expect(crypto.open(Array("not json".utf8)) == .failure(.notEncrypted))
    }
}
