import Foundation
import GPSTrackProtocol
import Testing

/// gpstrackctl is a socket client: it links the protocol module alone, none of the daemon's
/// C libraries (issue 13).
@Suite struct ClientFootprintTests {
    @Test func gpstrackctlLinksNoneOfTheDaemonsLibraries() throws {
        let ctl = URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent().appendingPathComponent(
            "gpstrackctl"
        ).path
        #expect(FileManager.default.isExecutableFile(atPath: ctl), "gpstrackctl is built beside gpstrackd")
        let r = try ExecutableRunner.run([ctl], executable: "/usr/bin/ldd")
        #expect(r.status == 0, "ldd \(ctl): \(r.stderr)")
        #expect(r.stdout.contains("libc.so"), "ldd lists the libraries: \(r.stdout)")
        for lib in ["libsystemd", "libgeos", "libsqlite3", "libmosquitto"] {
            #expect(!r.stdout.contains(lib), "gpstrackctl links \(lib):\n\(r.stdout)")
        }
        // And the daemon does link them, so the check above can see a library when it is there.
        let d = try ExecutableRunner.run([ExecutableRunner.binary], executable: "/usr/bin/ldd")
        #expect(d.stdout.contains("libsystemd") && d.stdout.contains("libsqlite3"), "ldd gpstrackd:\n\(d.stdout)")
    }

    @Test func everyRequestReadsBackAsItself() {
        let t = 1_773_475_358.0
        let requests: [ControlRequest] = [
            .status, .fences, .state(fence: "home"), .start, .stop, .reset, .reload, .watch, .trips, .stops,
            .guard(true), .guard(false), .events(since: t, fence: "work"), .events(since: nil, fence: nil),
            .steps(since: t), .export(trip: 3, since: nil, until: nil), .export(trip: nil, since: t, until: t + 60),
            .exportPage(ExportScope(trip: 2, since: nil, until: nil), after: 17, limit: 5),
            .exportPage(ExportScope(trip: nil, since: t, until: t + 86_400), after: nil),
        ]
        for r in requests {
            let back = ControlRequest.parse(ArraySlice(r.line.utf8))
            #expect(back == .success(r), "\(r.line)")
        }
    }
}
