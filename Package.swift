// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gpstrackd",
    products: [
        .executable(name: "gpstrackd", targets: ["gpstrackd"]),
        .executable(name: "gpstrackctl", targets: ["gpstrackctl"]),
        .library(name: "GPSTrackCore", targets: ["GPSTrackCore"]),
    ],
    targets: [
        // C modules over Debian's -dev packages, found with pkg-config.
        // libgps and GeographicLib are linked from the archives their -dev packages ship, as
        // gpsd's own clients (gpxlogger, cgps) link libgps: as shared libraries they brought
        // libstdc++ into the daemon, and the three cost 1.1 MiB of its live peak RSS for the
        // few functions it calls (issue 45; debian/static-cxx has the C++ library's part).
        .systemLibrary(
            name: "CGPS", path: "Sources/CGPS",
            providers: [.apt(["libgps-dev"])]),
        // Geodesics: GeographicLib's C++ behind a C header (Debian's libgeographiclib-dev).
        // Linked from Debian's archive (its module map), as CGPS is.
        .target(name: "CGeodesic", path: "Sources/CGeodesic"),

        // GEOS through dlopen, when a fence needs it; geos_c.h (libgeos-dev) checks the calls' types.
        .target(name: "CGEOS", path: "Sources/CGEOS"),

        .systemLibrary(
            name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),

        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),

        // libmosquitto (and libssl's TLS diagnosis) through dlopen, when MQTT is configured;
        // mosquitto.h (libmosquitto-dev) gives the types only.
        .target(name: "CMosquitto", path: "Sources/CMosquitto"),
        // libsodium for OwnTracks' payload encryption, through dlopen when a secret is set;
        // sodium.h (libsodium-dev) checks the loaded calls' types.
        .target(name: "CSodium", path: "Sources/CSodium"),
        // libcurl for the HTTP uplinks (Traccar), through dlopen when one is configured;
        // curl.h (libcurl4-openssl-dev) checks the loaded calls' types.
        .target(name: "CCurl", path: "Sources/CCurl"),

        // The crash handler: a backtrace on a fatal signal (header only, no library).
        .systemLibrary(name: "CCrash", path: "Sources/CCrash"),

        // JSON, the leaf: the parser, `JSONValue` and the one writer (a Codable coder).
        .target(name: "GPSTrackJSON"),
        // The one event vocabulary (`EventName`): the core, the wire and the outlets share it.
        .target(name: "GPSTrackVocabulary"),
        // What travels on the control socket: times, requests, replies, events. No C library.
        .target(name: "GPSTrackProtocol", dependencies: ["GPSTrackJSON", "GPSTrackVocabulary"]),
        // The control socket's client: gpstrackctl's and the tests'.
        .target(name: "GPSTrackClient", dependencies: ["GPSTrackProtocol", "GPSTrackJSON"]),
        // The formats of `gpstrackctl export --format`: streaming writers over the protocol's pages.
        .target(name: "GPSTrackExport", dependencies: ["GPSTrackProtocol", "GPSTrackJSON", "GPSTrackVocabulary"]),
        // Pure logic: no I/O, no clocks.
        .target(name: "GPSTrackCore", dependencies: ["GPSTrackJSON", "GPSTrackVocabulary", "CGeodesic", "CGEOS"]),
        // Adapters: gpsd JSON through libgps, files, replay (and the legacy export's GPX, by
        // the export formats' writer).
        .target(name: "GPSTrackDaemon", dependencies: ["GPSTrackCore", "GPSTrackProtocol", "GPSTrackJSON", "GPSTrackVocabulary", "GPSTrackExport", "CGPS", "CSystemd", "CSQLite", "CMosquitto", "CSodium", "CCurl"]),
        // Seeded receiver simulator: test support and benchmarks.
        .target(name: "GPSTrackSim", dependencies: ["GPSTrackCore"]),
        // The in-process test kit: an in-memory journal, a tracker harness (tests only).
        .target(name: "GPSTrackTestKit", dependencies: ["GPSTrackDaemon", "GPSTrackCore", "GPSTrackProtocol", "GPSTrackSim"]),

        .executableTarget(name: "gpstrackd", dependencies: ["GPSTrackDaemon", "GPSTrackCore", "CCrash"]),
        // The client links the protocol alone: no libgps, GeographicLib, GEOS, SQLite or libmosquitto.
        .executableTarget(name: "gpstrackctl", dependencies: ["GPSTrackProtocol", "GPSTrackJSON", "GPSTrackClient", "GPSTrackExport", "GPSTrackVocabulary"]),
        .executableTarget(
            name: "gpstrack-bench",
            dependencies: ["GPSTrackSim", "GPSTrackCore", "GPSTrackDaemon", "CGPS"],
            // Its floor calls gps_unpack, whose object in libgps's archive holds gps_open too,
            // and with it libgps's D-Bus reader; the daemon calls neither. The library by its
            // file name: libgps28 depends on it, and its -dev package is needed for nothing else.
            linkerSettings: [.linkedLibrary(":libdbus-1.so.3")]),

        .testTarget(name: "GPSTrackCoreTests", dependencies: ["GPSTrackCore", "GPSTrackSim"]),
        .testTarget(
            name: "GPSTrackDaemonTests",
            dependencies: ["GPSTrackDaemon", "GPSTrackSim", "GPSTrackCore", "GPSTrackExport", "GPSTrackClient"]),
        // The JSON module and the wire types alone: no daemon, no C library.
        .testTarget(name: "GPSTrackProtocolTests", dependencies: ["GPSTrackJSON", "GPSTrackProtocol"]),
        .testTarget(name: "GPSTrackSimTests", dependencies: ["GPSTrackSim", "GPSTrackCore"]),
        // The daemon's behaviour in-process: the tracking actor, its sinks and the control
        // handlers with an in-memory journal and a temporary store; no process, no socket.
        .testTarget(name: "GPSTrackPipelineTests",
                    dependencies: ["GPSTrackTestKit", "GPSTrackDaemon", "GPSTrackCore", "GPSTrackSim", "GPSTrackExport"]),
    ],
    swiftLanguageModes: [.v6]
)
