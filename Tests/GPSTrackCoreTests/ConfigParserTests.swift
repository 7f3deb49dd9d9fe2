import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

@Suite struct ConfigParserTests {
    @Test func parsesKeysCommentsAndDefaults() throws {
        let text = """
            # gpstrackd.conf
            gpsd = gps.local:2948   # the receiver box
            distance_filter_m = 5

            max_horizontal_error_m=30
            fences = /etc/gpstrackd/fences.geojson
            """
        let c = try ConfigParser.parse(text, file: "t.conf")
        #expect(c.gpsdHost == "gps.local")
        #expect(c.gpsdPort == 2948)
        #expect(c.tracker.distanceFilterM == 5)
        #expect(c.tracker.maxHorizontalErrorM == 30)
        #expect(c.fencesPath == "/etc/gpstrackd/fences.geojson")
        #expect(c.tracker.maxSpeedMps == TrackerConfig().maxSpeedMps)
    }

    @Test(arguments: [
        ("a = 1\n", 1, "unknown key 'a'"),
        ("\n\ndistance_filter_m = ten\n", 3, "expected a number"),
        ("distance_filter_m = -1\n", 1, "must be >= 0"),
        ("max_speed_mps = 0\n", 1, "must be > 0"),
        ("max_speed_mps = nan\n", 1, "expected a number"),
        ("gpsd = host:99999\n", 1, "expected HOST:PORT"),
        ("socket = /a\nsocket = /b\n", 2, "repeats line 1"),
        ("just words\n", 1, "expected 'key = value'"),
        ("fences =\n", 1, "has no value"),
        ("# trips\ntrip_mode = sometimes\n", 2, "expected auto or manual"),
        ("min_stop_s = 0\n", 1, "must be > 0"),
        ("min_trip_distance_m = -5\n", 1, "must be >= 0"),
        ("max_gap_s = soon\n", 1, "expected a number"),
        ("guard = maybe\n", 1, "expected on or off"),
        ("trip_mode = manual\n\nguard = on\n", 3, "guard = on needs trip_mode = auto"),
        ("speed_limit_kmh = -30\n", 1, "km/h > 0"),
        ("guard_radius_m = 0\n", 1, "must be > 0"),
        ("overspeed_min_s = x\n", 1, "expected a number"),
    ])
    func errorsNameFileAndLine(_ text: String, _ line: Int, _ fragment: String) {
        #expect {
            _ = try ConfigParser.parse(text, file: "/etc/gpstrackd/gpstrackd.conf")
        } throws: { error in
            guard let e = error as? ConfigError else { return false }
            return e.line == line && e.description.hasPrefix("/etc/gpstrackd/gpstrackd.conf:\(line): ")
                && e.message.contains(fragment)
        }
    }

    @Test func tripKeys() throws {
        let c = try ConfigParser.parse(
            "trip_mode = manual\nmin_stop_s = 120\nmin_trip_distance_m = 500\nmin_trip_s = 30\nmax_gap_s = 600\n",
            file: "t.conf")
        #expect(c.tracker.tripMode == .manual)
        #expect(
            c.tracker.minStopS == 120 && c.tracker.minTripDistanceM == 500 && c.tracker.minTripS == 30
                && c.tracker.maxGapS == 600)
        #expect(TrackerConfig().tripMode == .auto, "automatic trips by default")
        let g = try ConfigParser.parse(
            "guard = on\nguard_after_s = 60\nguard_radius_m = 150\nspeed_limit_kmh = 80\noverspeed_min_s = 5\n",
            file: "t.conf")
        #expect(g.tracker.guardOn && g.tracker.guardAfterS == 60 && g.tracker.guardRadiusM == 150)
        #expect(g.tracker.speedLimitKmh == 80 && g.tracker.overspeedMinS == 5)
        #expect(TrackerConfig().speedLimitKmh == nil && !TrackerConfig().guardOn)
    }

    @Test func hostPortForms() {
        #expect(ConfigParser.parseHostPort("localhost:2947")! == ("localhost", 2947))
        #expect(ConfigParser.parseHostPort("[::1]:3000")! == ("::1", 3000))
        #expect(ConfigParser.parseHostPort("gps")! == ("gps", 2947))
        #expect(ConfigParser.parseHostPort(":80") == nil)
        #expect(ConfigParser.parseHostPort("a:b:c") == nil)
    }
}

@Suite struct PedometerConfigTests {
    @Test func pedometerKeys() throws {
        let c = try ConfigParser.parse(
            "pedometer = off\niio_root = /tmp/sys\niio_dev_root = /tmp/dev\nstride_m = 0.82\n", file: "p.conf")
        #expect(c.pedometer == .off && c.iioRoot == "/tmp/sys" && c.iioDevRoot == "/tmp/dev" && c.strideM == 0.82)
        let d = Configuration()
        #expect(
            d.pedometer == .auto && d.iioRoot == "/sys/bus/iio/devices" && d.iioDevRoot == "/dev" && d.strideM == 0.7)
    }

    @Test(arguments: [
        ("pedometer = maybe\n", "expected auto or off"), ("stride_m = 9\n", "expected metres"),
        ("stride_m = nan\n", "expected metres"),
    ])
    func badPedometerValues(text: String, message: String) {
        #expect(throws: ConfigError.self) { try ConfigParser.parse(text, file: "p.conf") }
        do { _ = try ConfigParser.parse(text, file: "p.conf") } catch {
            #expect(error.description.contains("p.conf:1: ") && error.description.contains(message))
        }
    }
}

@Suite struct SampleConfigTests {
    /// The pedometer's keys are documented in the sample configuration.
    @Test func theSampleConfigListsThePedometerKeys() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("config/gpstrackd.conf"), encoding: .utf8)
        let documented = Set(
            text.split(separator: "\n").compactMap { line -> String? in
                var l = line.drop { $0 == "#" || $0 == " " }
                guard let eq = l.firstIndex(of: "=") else { return nil }
                l = l[..<eq]
                return l.trimmingCharacters(in: .whitespaces)
            })
        for key in ["pedometer", "iio_root", "iio_dev_root", "stride_m"] {
            #expect(ConfigParser.keys.contains(key))
            #expect(documented.contains(key), "\(key) is not in config/gpstrackd.conf")
        }
    }
}
