import GPSTrackCore
import GPSTrackSim
import Testing

/// The inputs' state machine (gpstrackd(8), INPUTS): what each settled reading means, at its
/// fix time.
@Suite struct InputMonitorTests {
    let here = Coordinate(latitude: 52.52, longitude: 13.405)

    @Test func ignitionCountsEngineSecondsInFixTimeAndTheFirstReadingIsQuiet() {
        var m = InputMonitor()
        #expect(m.ingest(.level(.ignition, on: false), time: 1000, at: nil).isEmpty, "the start says nothing")
        #expect(m.ingest(.level(.ignition, on: false), time: 1001, at: nil).isEmpty, "no change, nothing")
        #expect(m.ingest(.level(.ignition, on: true), time: 1010, at: here) == [.ignitionOn(time: 1010, at: here)])
        #expect(m.engineSeconds(now: 1100) == 90, "the running ignition counted up to now")
        #expect(
            m.ingest(.level(.ignition, on: false), time: 1733.5, at: here)
                == [.ignitionOff(time: 1733.5, at: here, engineS: 723.5, engineTotalS: 723.5)])
        _ = m.ingest(.level(.ignition, on: true), time: 2000, at: here)
        #expect(
            m.ingest(.level(.ignition, on: false), time: 2100, at: here)
                == [.ignitionOff(time: 2100, at: here, engineS: 100, engineTotalS: 823.5)])
        #expect(m.engineSeconds(now: 5000) == 823.5, "off: no more seconds")
        // Found on at the start: counted from that reading, with no `ignition_on`.
        var n = InputMonitor()
        #expect(n.ingest(.level(.ignition, on: true), time: 50, at: nil).isEmpty)
        #expect(n.ingest(.level(.ignition, on: false), time: 80, at: nil).map(\.name) == [.ignitionOff])
        #expect(n.engineTotalS == 30)
    }

    @Test func aNoisyBatteryCrossesItsThresholdOnceUntilItRecovers() {
        var m = InputMonitor()  // battery_low_pct 20, re-armed at 25
        var said: [InputEvent] = []
        var t = 0.0
        for pct in [40, 30, 21, 20, 19, 21, 19, 20, 18, 22, 19, 24, 17, 16] {
            t += 60
            said += m.ingest(.power(online: false, batteryPct: pct, volts: 3.7), time: t, at: here)
        }
        #expect(said == [.batteryLow(time: 300, at: here, batteryPct: 19)], "once, at the first reading below 20")
        for pct in [25, 30, 19] {
            t += 60
            said += m.ingest(.power(online: false, batteryPct: pct, volts: 3.7), time: t, at: here)
        }
        #expect(said.map(\.name) == [.batteryLow, .batteryLow], "25 re-arms it; 19 says it again")
        var off = InputMonitor(
            config: {
                var c = InputMonitor.Config()
                c.batteryLowPct = 0
                return c
            }())
        #expect(off.ingest(.power(online: false, batteryPct: 0, volts: nil), time: 1, at: nil).isEmpty, "0: never")
    }

    @Test func powerLostAndRestoredOnChangesOnly() {
        var m = InputMonitor()
        #expect(m.ingest(.power(online: true, batteryPct: 90, volts: 12.6), time: 10, at: here).isEmpty)
        #expect(m.ingest(.power(online: true, batteryPct: 91, volts: 12.7), time: 20, at: here).isEmpty)
        #expect(
            m.ingest(.power(online: false, batteryPct: 91, volts: 11.9), time: 30, at: here)
                == [.powerLost(time: 30, at: here, batteryPct: 91, volts: 11.9)])
        #expect(m.ingest(.level(.power, on: false), time: 35, at: here).isEmpty, "a level source, same state")
        #expect(
            m.ingest(.level(.power, on: true), time: 40, at: here)
                == [.powerRestored(time: 40, at: here, batteryPct: 91, volts: 11.9)], "keeps the last figures")
    }

    @Test func sosIsLatchedSaidAgainUntilAcknowledgedAndAPressWhileRaisedIsOne() {
        var c = InputMonitor.Config()
        c.repeatS = 60
        var m = InputMonitor(config: c)
        #expect(m.ingest(.level(.sos, on: false), time: 0, at: nil).isEmpty)
        #expect(m.ingest(.level(.sos, on: true), time: 100, at: here) == [.sos(time: 100, at: here, repeat: 0)])
        #expect(m.ingest(.level(.sos, on: false), time: 101, at: here).isEmpty)
        #expect(m.ingest(.level(.sos, on: true), time: 102, at: here).isEmpty, "pressed again while raised: one alarm")
        #expect(m.tick(now: 150, at: here).isEmpty)
        #expect(m.tick(now: 160, at: here) == [.sos(time: 160, at: here, repeat: 1)])
        #expect(m.tick(now: 230, at: here) == [.sos(time: 230, at: here, repeat: 2)])
        #expect(m.acknowledgeSOS(time: 240) == [.sosAck(time: 240)])
        #expect(m.acknowledgeSOS(time: 241).isEmpty, "a second ack says nothing")
        #expect(m.tick(now: 10_000, at: here).isEmpty, "quiet after the ack")
        _ = m.ingest(.level(.sos, on: false), time: 300, at: here)
        #expect(m.ingest(.level(.sos, on: true), time: 310, at: here).map(\.name) == [.sos], "a new press, a new alarm")
        // A button found pressed at the start is said (an emergency is not lost to a restart).
        var fresh = InputMonitor()
        #expect(fresh.ingest(.level(.sos, on: true), time: 5, at: nil) == [.sos(time: 5, at: nil, repeat: 0)])
    }

    @Test func theSessionSequencesInputEventsWithTheLastAcceptedPlace() {
        var session = TrackingSession(config: TrackerConfig())
        let first = session.input(.level(.ignition, on: false), time: 10)
        #expect(first.isEmpty)
        let on = session.input(.level(.ignition, on: true), time: 20)
        #expect(on.count == 1 && on[0].seq == session.seq && on[0].name == .ignitionOn)
        guard case .tracker(.input(.ignitionOn(20, nil))) = on[0].event else {
            Issue.record("expected ignition_on at 20 with no place before any fix: \(on)")
            return
        }
    }
}

/// `trip_source` (gpstrackd.conf(5)): the ignition ends a trip at once, and gates the trips.
@Suite struct TripSourceTests {
    /// A drive of 4 min at 12 m/s after a minute parked, then parked 10 min.
    static let drive: [Fix] = {
        let steps =
            Array(repeating: Scenario.Step(speed: 0, heading: 90), count: 60)
            + Array(repeating: Scenario.Step(speed: 12, heading: 90), count: 240)
            + Array(repeating: Scenario.Step(speed: 0, heading: 90), count: 600)
        return Simulator.run(
            Scenario(name: "drive", start: Coordinate(latitude: 52.52, longitude: 13.405), steps: steps), seed: 7
        ).fixes
    }()

    /// Runs the drive with the ignition on at `on` and off at `off` (fix times from the start).
    static func run(_ source: TrackerConfig.TripSource, on: Double?, off: Double?) -> [TrackingSession.Sequenced] {
        var config = TrackerConfig()
        config.tripSource = source
        var session = TrackingSession(config: config)
        let t0 = drive[0].time ?? 0
        var out = session.input(.level(.ignition, on: false), time: t0)
        for fix in drive {
            let t = fix.time ?? 0
            if let on, t == t0 + on { out += session.input(.level(.ignition, on: true), time: t) }
            if let off, t == t0 + off { out += session.input(.level(.ignition, on: false), time: t) }
            out += session.ingest(fix)
        }
        return out
    }

    static func names(_ events: [TrackingSession.Sequenced]) -> [String] {
        events.map(\.name.rawValue).filter { ["trip_start", "trip_end", "ignition_on", "ignition_off"].contains($0) }
    }

    @Test func anIgnitionOffEndsTheTripAtOnceWithBothAndIgnition() throws {
        // By GPS the trip ends once the van has stood min_stop_s (300 s) after 300 s.
        let gps = Self.run(.gps, on: 30, off: 330)
        let gpsEnd = try #require(gps.first { $0.isTripEnd }?.time)
        let t0 = Self.drive[0].time ?? 0
        #expect(gpsEnd >= t0 + 295, "by GPS the end is the arrival, found 300 s later")
        #expect(gps.firstIndex { $0.isTripEnd }! > gps.firstIndex { $0.name == .ignitionOff }!, "after the ignition")
        for source: TrackerConfig.TripSource in [.both, .ignition] {
            let events = Self.run(source, on: 30, off: 330)
            #expect(
                Self.names(events) == ["ignition_on", "trip_start", "ignition_off", "trip_end"], "\(source)")
            let off = try #require(events.firstIndex { $0.name == .ignitionOff })
            #expect(events[off + 1].isTripEnd, "\(source): the trip ends right after the ignition goes off")
            #expect(events[off + 1].time == t0 + 329, "\(source): at the last fix before it")
        }
    }

    @Test func withoutTheIgnitionOnlyGPSOrBothMakeATrip() {
        // The ignition never goes on (a tow, or a line not wired).
        #expect(Self.names(Self.run(.ignition, on: nil, off: nil)) == [], "ignition: no trip without it")
        #expect(Self.names(Self.run(.both, on: nil, off: nil)) == [], "both: the ignition is known off")
        #expect(Self.names(Self.run(.gps, on: nil, off: nil)) == ["trip_start", "trip_end"], "gps: as ever")
    }
}

/// The inputs' keys (gpstrackd.conf(5), INPUTS): each source form read, each bad value an error
/// naming the file and line.
@Suite struct InputConfigTests {
    @Test func theSourcesAndTheirSettingsAreRead() throws {
        let c = try ConfigParser.parse(
            """
            input_ignition = file:/sys/class/gpio/gpio529/value
            input_ignition_active_low = yes
            input_ignition_debounce_ms = 200
            input_ignition_off_delay_s = 5
            input_power = power_supply:ups-hat_0
            input_sos = iio:iio:device0:3:9.5
            input_root = /tmp/tree
            battery_low_pct = 15
            trip_source = both
            """, file: "t.conf")
        #expect(c.inputs.sources[.ignition] == .file(path: "/sys/class/gpio/gpio529/value"))
        #expect(c.inputs.activeLow == [.ignition] && c.inputs.debounceS(.ignition) == 0.2)
        #expect(c.inputs.debounceS(.power) == 0.05, "the default 50 ms")
        #expect(c.inputs.ignitionOffDelayS == 5 && c.inputs.root == "/tmp/tree")
        #expect(c.inputs.sources[.power] == .powerSupply(name: "ups-hat_0"))
        #expect(c.inputs.sources[.sos] == .iio(device: "iio:device0", channel: 3, volts: 9.5))
        #expect(c.tracker.inputs.batteryLowPct == 15 && c.tracker.tripSource == .both)
        #expect(!Configuration().inputs.any, "no input by default")
    }

    @Test func aBadValueNamesTheFileAndLine() {
        for (line, says) in [
            ("input_ignition = gpio:17", "expected file:PATH"),
            ("input_ignition = file:relative/path", "absolute path"),
            ("input_power = power_supply:../../etc", "a supply's name"),
            ("input_power = power_supply:", "a supply's name"),
            ("input_sos = iio:iio:device0:300:9.5", "a channel 0-255"),
            ("input_sos = iio:iio:device0:1:-3", "DEVICE:CHANNEL:VOLTS"),
            ("input_sos = iio:iio:device0:1:nan", "DEVICE:CHANNEL:VOLTS"),
            ("input_sos = iio:../x:1:5", "DEVICE:CHANNEL:VOLTS"),
            ("input_ignition_active_low = maybe", "yes or no"),
            ("input_power_debounce_ms = 60001", "0 to 60000"),
            ("input_power_debounce_ms = 1.5", "0 to 60000"),
            ("input_ignition_off_delay_s = 1e300", "0 to 3600"),
            ("input_root = sys", "absolute path"),
            ("battery_low_pct = 96", "0 (never) to 95"),
            ("trip_source = engine", "gps, ignition or both"),
        ] {
            #expect {
                _ = try ConfigParser.parse("guard = on\n" + line + "\n", file: "box.conf")
            } throws: { error in
                let text = "\(error)"
                return text.contains("box.conf:2") && text.contains(says)
            }
        }
    }
}

/// `guard_arm_on_ignition_off` and the power lost while armed (gpstrackd(8), INPUTS).
@Suite struct GuardIgnitionTests {
    static func session(afterS: Double, trips: TrackerConfig.TripSource = .both) -> TrackingSession {
        var config = TrackerConfig()
        config.guardOn = true
        config.guardArmOnIgnitionOff = true
        config.guardAfterS = afterS
        config.guardRepeatS = 60
        config.tripSource = trips
        return TrackingSession(config: config)
    }

    /// The drive, with `inputs` (seconds from the start, reading) put in before the fix of
    /// that second, and `ack` seconds at which `guard ack` is given.
    static func run(_ s: inout TrackingSession, _ inputs: [Double: InputReading], ack: Double? = nil)
        -> [TrackingSession.Sequenced]
    {
        let t0 = TripSourceTests.drive[0].time ?? 0
        var out =
            s.input(.level(.ignition, on: false), time: t0)
            + s.input(.power(online: true, batteryPct: 90, volts: 12.6), time: t0)
        for fix in TripSourceTests.drive {
            let t = fix.time ?? 0
            if let r = inputs[t - t0] { out += s.input(r, time: t) }
            if let ack, t == t0 + ack { out += s.acknowledgeGuard(time: t) }
            out += s.ingest(fix)
        }
        return out
    }

    @Test func armedAtOnceWhereTheIgnitionWentOffAndAPowerCutIsALatchedAlarm() throws {
        var s = Self.session(afterS: 0)
        let t0 = TripSourceTests.drive[0].time ?? 0
        let events = Self.run(
            &s,
            [
                30: .level(.ignition, on: true), 330: .level(.ignition, on: false),
                400: .power(online: false, batteryPct: 90, volts: 12.1),
            ], ack: 600)
        let armed = try #require(events.first { $0.name == .guardArmed })
        #expect(armed.time == t0 + 330, "armed at the ignition off, not at a stop")
        let names = events.map(\.name).filter { [.ignitionOff, .tripEnd, .guardArmed].contains($0) }
        #expect(names == [.ignitionOff, .tripEnd, .guardArmed], "the trip ends, then the guard arms")
        // Before the ignition off, the start's quiet reading armed nothing: no position yet.
        #expect(events.filter { $0.name == .guardArmed }.count == 1)
        let lost = events.compactMap { e -> (Double, Int?)? in
            if case .tracker(.input(.powerLost(let t, _, _, _, let n))) = e.event { return (t - t0, n) }
            return nil
        }
        #expect(lost.map(\.1) == [0, 1, 2, 3], "raised at 400, said again every 60 s until the ack at 600: \(lost)")
        #expect(lost.first?.0 == 400)
        #expect(events.filter { $0.name == .guardAck }.count == 1)
        #expect(!events.contains { $0.name == .guardBreach }, "parked all along: no breach")
    }

    /// With GPS making the trips the ignition still arms the guard (it once armed it silently:
    /// the `guard_armed` was lost with the trips' early return).
    @Test func withTripsByGPSTheIgnitionOffStillArmsAndSaysSo() throws {
        var s = Self.session(afterS: 0, trips: .gps)
        let t0 = TripSourceTests.drive[0].time ?? 0
        let events = Self.run(&s, [30: .level(.ignition, on: true), 330: .level(.ignition, on: false)])
        let armed = events.filter { $0.name == .guardArmed }
        #expect(armed.count == 1 && armed.first?.time == t0 + 330, "\(armed.map(\.time))")
        #expect(s.tracker.parkedGuard.armedAt != nil)
        #expect(!events.contains { $0.isTripEnd && $0.time == t0 + 329 }, "gps: the ignition ends no trip")
    }

    @Test func armedAfterGuardAfterSAndDisarmedQuietlyByTheIgnitionOn() throws {
        var s = Self.session(afterS: 120)
        let t0 = TripSourceTests.drive[0].time ?? 0
        let events = Self.run(
            &s,
            [
                30: .level(.ignition, on: true), 330: .level(.ignition, on: false),
                700: .level(.ignition, on: true),
                750: .power(online: false, batteryPct: 90, volts: 12.1),
            ])
        let armed = try #require(events.first { $0.name == .guardArmed })
        #expect(armed.time == t0 + 450, "guard_after_s (120 s) after the ignition off")
        #expect(s.tracker.parkedGuard.armedAt == nil, "the ignition on disarmed it")
        #expect(!events.contains { $0.name == .guardBreach })
        let lost = events.compactMap { e -> Int?? in
            if case .tracker(.input(.powerLost(_, _, _, _, let n))) = e.event { return n }
            return nil
        }
        #expect(lost == [nil], "a power cut while disarmed is no alarm, said once")
    }
}

/// A trip's engine seconds: the part of it the ignition was on, in fix time.
@Suite struct TripEngineTests {
    static func figures(_ events: [TrackingSession.Sequenced]) -> TripFigures? {
        for e in events { if case .tracker(.tripEnd(let f)) = e.event { return f } }
        return nil
    }

    @Test func aTripCountsTheIgnitionsSecondsWithinIt() throws {
        let t0 = TripSourceTests.drive[0].time ?? 0
        // On before the departure (about 60 s) through the end: the whole trip.
        let f = try #require(Self.figures(TripSourceTests.run(.both, on: 30, off: 330)))
        #expect(f.engineS == f.durationS, "on all along: \(f.engineS ?? -1) of \(f.durationS) s")
        // On 40 s after the departure, by GPS: the trip ends at the arrival, found later.
        let g = try #require(Self.figures(TripSourceTests.run(.gps, on: 100, off: 700)))
        #expect(g.engineS == g.end - (t0 + 100), "from the ignition on to the arrival: \(g.engineS ?? -1)")
        // No ignition read: none.
        var session = TrackingSession(config: TrackerConfig())
        let h = try #require(Self.figures(TripSourceTests.drive.flatMap { session.ingest($0) }))
        #expect(h.engineS == nil)
    }
}
