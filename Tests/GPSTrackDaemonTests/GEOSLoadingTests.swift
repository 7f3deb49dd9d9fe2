import Foundation
import Testing

/// Issue 24: libgeos_c is mapped only when a fence needs it (a corridor, a large polygon):
/// circles and small polygons take our own index and validity check. Its absence where a fence
/// needs it is a bad fences file naming the fence and the package (exit 78).
@Suite struct GEOSLoadingTests {
    static let circleAndSquare = """
        {"type":"Feature","id":"gate","properties":{"radius":60},
         "geometry":{"type":"Point","coordinates":[13.3777,52.51628]}},
        {"type":"Feature","id":"depot","geometry":{"type":"Polygon","coordinates":[[[13.40,52.49],
         [13.41,52.49],[13.41,52.50],[13.40,52.50],[13.40,52.49]]]}}
        """
    static let corridor = """
        {"type":"Feature","id":"route","properties":{"width_m":80},
         "geometry":{"type":"LineString","coordinates":[[13.38,52.51],[13.40,52.50]]}}
        """

    /// A ring of `n` vertices about Berlin: more than 64 needs GEOS.
    static func polygon(id: String, vertices n: Int) -> String {
        let ring = (0...n).map { k -> String in
            let a = 2 * Double.pi * Double(k % n) / Double(n)
            return "[\(13.4 + 0.01 * cos(a)),\(52.5 + 0.01 * sin(a))]"
        }
        return #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Polygon","coordinates":[["#
            + ring.joined(separator: ",") + "]]}}"
    }

    static func fencesFile(_ name: String, _ features: [String]) throws -> String {
        try ExecutableRunner.temporaryFile(
            "\(name)-\(getpid()).geojson",
            contents: #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
    }

    @Test func circlesAndSmallPolygonsMapNoGEOSALargePolygonOrACorridorDoes() throws {
        let small = try Self.fencesFile("small", [Self.circleAndSquare, Self.polygon(id: "round", vertices: 63)])
        let plain = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--fences", small])
        try plain.waitFor("started")
        let maps = OptionalLibraryTests.mapped(plain.pid)
        #expect(maps.contains("libsqlite3"), "the maps are read: \(maps.prefix(400))")
        #expect(!maps.contains("libgeos"), "libgeos mapped for circles and small polygons")
        #expect(plain.stop() == 0)

        for (name, feature) in [("large", Self.polygon(id: "big", vertices: 65)), ("corridor", Self.corridor)] {
            let file = try Self.fencesFile(name, [Self.circleAndSquare, feature])
            let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--fences", file])
            try daemon.waitFor("started")
            #expect(OptionalLibraryTests.mapped(daemon.pid).contains("libgeos_c.so"), "libgeos_c not mapped: \(name)")
            #expect(daemon.stop() == 0)
        }
    }

    /// A reload whose file newly needs GEOS loads it then, and the corridor is in force.
    @Test func aReloadThatNeedsGEOSLoadsIt() throws {
        let file = try Self.fencesFile("reload", [Self.circleAndSquare])
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--fences", file])
        try daemon.waitFor("started")
        #expect(!OptionalLibraryTests.mapped(daemon.pid).contains("libgeos"), "libgeos mapped before the reload")
        _ = try Self.fencesFile("reload", [Self.circleAndSquare, Self.corridor])
        daemon.signal(SIGHUP)
        try daemon.waitFor("fences_reloaded")
        #expect(try daemon.entries("fences_reloaded").first?["GPSTRACK_FENCES"] as? String == "3")
        #expect(
            OptionalLibraryTests.mapped(daemon.pid).contains("libgeos_c.so"), "libgeos_c not mapped after the reload")
        #expect(daemon.stop() == 0)
    }

    /// libgeos_c made unreadable in a mount namespace of the daemon's own (the real loader's
    /// failure, no hook in the daemon): a corridor is a bad fences file naming it and the package.
    @Test(.enabled(if: getuid() == 0, "a private mount namespace needs root"))
    func aFenceThatNeedsGEOSWithoutItIsABadFencesFileNamingThePackage() throws {
        let lib = "/usr/lib/x86_64-linux-gnu/libgeos_c.so.1"
        try #require(FileManager.default.fileExists(atPath: lib), "libgeos-c1v5 is installed with libgeos-dev")
        func run(_ fences: String) throws -> ExecutableRunner.Result {
            let state = fences.replacingOccurrences(of: ".geojson", with: ".state")
            return try OptionalLibraryTests.runHiding(lib, stateBase: state, "--fences '\(fences)'")
        }
        let needs = try Self.fencesFile("nogeos", [Self.circleAndSquare, Self.corridor])
        let r = try run(needs)
        #expect(r.status == 78, "exit \(r.status): \(r.stderr)")
        #expect(
            r.stderr.contains(
                #"\#(needs): feature 2 (id "route"): this fence needs GEOS but libgeos_c cannot be loaded"#),
            "\(r.stderr)")
        #expect(r.stderr.contains("install the package libgeos-c1v5"), "\(r.stderr)")
    }
}
