import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

/// The modules' shape (issue 21): JSON is a leaf, the core needs JSON and no wire type, so
/// that the core's tests and a fuzzer link no protocol and the protocol no core. Read from the
/// built objects' undefined symbols (`nm -u`), as the `_StringProcessing` check does.
@Suite struct ModuleShapeTests {
    static func undefined(in module: String) throws -> [String] {
        let bin = URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent()
        let dir = bin.appendingPathComponent("\(module).build")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        let objects = names.filter { $0.hasSuffix(".o") }.map { dir.appendingPathComponent($0).path }
        try #require(objects.count >= 4, "\(module)'s objects are beside the binary: \(objects.count) in \(dir.path)")
        let r = try ExecutableRunner.run(["-u"] + objects, executable: "/usr/bin/nm")
        try #require(r.status == 0, "nm: \(r.stderr)")
        return r.lines
    }

    @Test func jsonIsALeafAndTheCoreUsesNoWireType() throws {
        // Swift mangles a module's name as its length and the name: 16GPSTrackProtocol.
        let project = ["16GPSTrackProtocol", "12GPSTrackCore", "14GPSTrackDaemon", "14GPSTrackClient"]
        let json = try Self.undefined(in: "GPSTrackJSON").filter { line in project.contains { line.contains($0) } }
        #expect(json.isEmpty, "GPSTrackJSON calls into the project's modules:\n\(json.joined(separator: "\n"))")
        let core = try Self.undefined(in: "GPSTrackCore").filter { $0.contains("16GPSTrackProtocol") }
        #expect(core.isEmpty, "GPSTrackCore calls into GPSTrackProtocol:\n\(core.joined(separator: "\n"))")
        let protocolCalls = try Self.undefined(in: "GPSTrackProtocol")
        #expect(
            protocolCalls.contains { $0.contains("12GPSTrackJSON") }, "the protocol's lines are written by GPSTrackJSON"
        )
    }

    /// The core cannot read the protocol's constant, so it spells the path out.
    @Test func theDaemonsDefaultSocketIsTheOneGpstrackctlTries() {
        #expect(Configuration().socketPath == ControlRequest.defaultSocketPath)
    }
}
