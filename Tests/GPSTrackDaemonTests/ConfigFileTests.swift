import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

/// Configuration files through the built executable: every error names `file:line`.
@Suite struct ConfigFileTests {
    static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = try ExecutableRunner.temporaryFile(name, contents: "")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func emptyLog() throws -> String {
        try ExecutableRunner.temporaryFile("empty-log.json", contents: GPSDLogHeader.text)
    }

    @Test func aCRLFConfigWithABadValueExits78NamingItsLine() throws {
        let conf = try Self.file(
            "crlf.conf", Array("# saved on Windows\r\nmqtt_topic = a\r\nmax_speed_mps = -5\r\n".utf8))
        let r = try ExecutableRunner.run(["replay", "--config", conf, try Self.emptyLog()])
        #expect(r.status == 78)
        #expect(r.stderr.contains("\(conf):3: max_speed_mps: must be > 0"), "\(r.stderr)")
        let daemon = try ExecutableRunner.run(["--config", conf, "--log", "stderr"])
        #expect(daemon.status == 78)
        #expect(daemon.stderr.contains("\(conf):3: max_speed_mps"))
    }

    @Test func aGoodCRLFConfigWithoutAFinalNewlineIsRead() throws {
        let conf = try Self.file("crlf-ok.conf", Array("hysteresis_m = 5\r\nmax_horizontal_error_m = 30".utf8))
        let r = try ExecutableRunner.run(["replay", "--config", conf, try Self.emptyLog()])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(arguments: [
        (Array("socket = /a\n\u{0}\n".utf8), 2, "NUL byte in the line"),
        (Array("# fine\n".utf8) + [0x23, 0xFF, 0x0A], 2, "not UTF-8 text"),
        (Array(("# " + String(repeating: "x", count: 5000)).utf8), 1, "line longer than 4096 bytes"),
    ])
    func badBytesNameTheLine(_ bytes: [UInt8], _ line: Int, _ message: String) throws {
        let conf = try Self.file("bytes-\(line)-\(bytes.count).conf", bytes)
        let r = try ExecutableRunner.run(["replay", "--config", conf, try Self.emptyLog()])
        #expect(r.status == 78)
        #expect(r.stderr.contains("\(conf):\(line): \(message)"), "\(r.stderr)")
    }

    @Test func aFencesFileThatIsNoFileNamesTheConfigLine() throws {
        let dir = NSTemporaryDirectory()
        for (target, what) in [
            ("/dev/zero", "a character device"), (dir, "a directory"), ("/nonexistent/f.geojson", "No such file"),
        ] {
            let conf = try Self.file("fences-\(what.count).conf", Array("# fences\r\nfences = \(target)\r\n".utf8))
            let r = try ExecutableRunner.run(["replay", "--config", conf, try Self.emptyLog()])
            #expect(r.status == 78)
            #expect(r.stderr.contains("\(conf):2: fences refused: \(target)"), "\(r.stderr)")
            #expect(r.stderr.contains(what), "\(r.stderr)")
            let d = try ExecutableRunner.run(["--config", conf, "--log", "stderr"])
            #expect(d.status == 78 && d.stderr.contains("\(conf):2: fences refused"), "\(d.stderr)")
        }
    }

    @Test func theMQTTPasswordFileNamesTheConfigLine() throws {
        let state = NSTemporaryDirectory() + "gpstrackd-pw-\(getpid())"
        let empty = try Self.file("empty-password", [])
        for (file, problem) in [
            ("/nonexistent/pw", "cannot read"), (empty, "the first line is empty"), ("/dev/zero", "not a regular file"),
        ] {
            let conf = try Self.file(
                "pw-\(problem.count).conf", Array("mqtt_host = 127.0.0.1\nmqtt_password_file = \(file)\n".utf8))
            let r = try ExecutableRunner.run([
                "--config", conf, "--log", "stderr", "--state-dir", state,
                "--socket", state + ".sock", "--gpsd", "127.0.0.1:1",
            ])
            #expect(r.status == 78)
            #expect(r.stderr.contains("\(conf):2: mqtt_password_file \(file): "), "\(r.stderr)")
            #expect(r.stderr.contains(problem), "\(r.stderr)")
        }
        try? FileManager.default.removeItem(atPath: state)
    }

    /// A password to a broker without TLS off the box: exit 78 naming the key's line, unless
    /// `allow_plaintext_credentials = yes` (issue 38).
    @Test func aPlaintextPasswordOffTheBoxExits78NamingTheKey() throws {
        let state = NSTemporaryDirectory() + "gpstrackd-plain-\(getpid())"
        let pw = try Self.file("plain-password", Array("secret\n".utf8))
        let conf = try Self.file(
            "plain.conf", Array("mqtt_host = 192.0.2.7\nmqtt_password_file = \(pw)\n".utf8))
        let r = try ExecutableRunner.run([
            "--config", conf, "--log", "stderr", "--state-dir", state, "--socket", state + ".sock", "--gpsd",
            "127.0.0.1:1",
        ])
        #expect(r.status == 78)
        #expect(r.stderr.contains("\(conf):2: mqtt_password_file: "), "\(r.stderr)")
        #expect(r.stderr.contains("allow_plaintext_credentials = yes"), "\(r.stderr)")
        try? FileManager.default.removeItem(atPath: state)
    }
}

enum GPSDLogHeader {
    static let text = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\n"
}
