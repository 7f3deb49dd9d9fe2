import Foundation
import GPSTrackDaemon
import GPSTrackJSON
import Testing

@testable import GPSTrackCore
@testable import GPSTrackProtocol

/// Event lines (`watch`, `events`, replay, the store) are `EventLine`s and `NoticeLine`s of
/// GPSTrackProtocol (issue 13): the daemon encodes the core's events with `EventJSON`, gpstrackctl
/// decodes them with `ReplyDecoder`. The line is the one written before the types, every kind
/// reads back as itself, and a line that does not read names its field.
@Suite struct EventLineTests {
    static let t0 = 1_773_475_200.0  // 2026-03-14T08:00:00Z
    static let home = Coordinate(latitude: 48.5, longitude: 2.25)

    static func fence(
        _ kind: FenceEvent.Kind, id: String, name: String?, at: Coordinate?, time: Double, crossed: Bool = false
    ) throws -> FenceEvent {
        let index = try FenceIndex(
            fences: [Fence(index: 0, id: id, name: name, shape: .circle(center: home, radiusM: 100))],
            file: "test.geojson")
        return FenceEvent(kind: kind, fence: 0, in: index, time: time, coordinate: at, crossed: crossed)
    }

    /// Every kind of event, with the line it has always had (keys in this order, `null` where a
    /// value is missing, absent where the kind leaves it out, figures rounded as written here).
    static func everyKind() throws -> [(TrackingSession.Event, String)] {
        let t = "2026-03-14T08:00:00.000Z"
        var trip = TripFigures(
            id: 4, start: t0, end: t0 + 600, from: home, to: Coordinate(latitude: 48.6, longitude: 2.5),
            traveledM: 5000.126, straightLineM: 4100, movingS: 540.04, maxSpeedMps: 19.444)
        trip.fromFences = ["Home"]
        trip.toFences = ["Work", "Car \"park\""]
        return [
            (
                .fence(try fence(.enter, id: "home", name: "Home", at: home, time: t0)),
                #"{"event":"enter","fence":"home","name":"Home","time":"\#(t)","lat":48.5,"lon":2.25,"#
            ),
            (
                .fence(
                    try fence(
                        .exit, id: "gate", name: nil, at: Coordinate(latitude: 48.5, longitude: 2), time: t0 + 1.5,
                        crossed: true)),
                #"{"event":"exit","fence":"gate","name":null,"time":"2026-03-14T08:00:01.500Z","lat":48.5,"lon":2.0,"crossed":true,"#
            ),
            (
                .fence(try fence(.dwell, id: "home", name: "Home", at: home, time: t0)),
                #"{"event":"dwell","fence":"home","name":"Home","time":"\#(t)","lat":48.5,"lon":2.25,"#
            ),
            (
                .fence(try fence(.state(.unknown), id: "home", name: "Home", at: nil, time: t0)),
                #"{"event":"state","fence":"home","name":"Home","state":"unknown","time":"\#(t)","lat":null,"lon":null,"#
            ),
            (
                .fencesDetermined(FenceCounts(inside: 1, outside: 2, unknown: 0, time: t0)),
                #"{"event":"fences_determined","inside":1,"outside":2,"unknown":0,"time":"\#(t)","#
            ),
            (
                .tracker(.tripStart(trip: nil, time: t0, at: home)),
                #"{"event":"trip_start","time":"\#(t)","lat":48.5,"lon":2.25,"#
            ),
            (
                .tracker(.tripStart(trip: 4, time: t0, at: home)),
                #"{"event":"trip_start","trip":4,"time":"\#(t)","lat":48.5,"lon":2.25,"#
            ),
            (
                .tracker(.tripEnd(trip)),
                #"{"event":"trip_end","trip":4,"start":"\#(t)","end":"2026-03-14T08:10:00.000Z","#
                    + #""from":{"lat":48.5,"lon":2.25,"fences":["Home"]},"to":{"lat":48.6,"lon":2.5,"fences":["Work","Car \"park\""]},"#
                    + #""traveled_m":5000.13,"straight_line_m":4100.0,"duration_s":600.0,"moving_s":540.0,"max_speed_mps":19.44,"avg_speed_mps":8.33,"#
            ),
            (.tracker(.tripStop(time: nil, traveledM: -0.0)), #"{"event":"trip_stop","time":null,"traveled_m":0.0,"#),
            (
                .tracker(.tripStop(time: t0, traveledM: 12.345)),
                #"{"event":"trip_stop","time":"\#(t)","traveled_m":12.35,"#
            ),
            (
                .tracker(.guardArmed(time: t0, at: home, radiusM: 24.96)),
                #"{"event":"guard_armed","time":"\#(t)","lat":48.5,"lon":2.25,"radius_m":25.0,"#
            ),
            (
                .tracker(
                    .guardBreach(
                        time: t0, at: Coordinate(latitude: 48.501, longitude: 2.25), parkedAt: home, distanceM: 130.04,
                        speedMps: 1.004)),
                #"{"event":"guard_breach","time":"\#(t)","lat":48.501,"lon":2.25,"distance_m":130.0,"speed_mps":1.0,"parked":{"lat":48.5,"lon":2.25,"fences":[]},"#
            ),
            (
                .tracker(.guardArmRefused(time: t0, at: Coordinate(latitude: 48.503, longitude: 2.25), parkedAt: home)),
                #"{"event":"guard_arm_refused","time":"\#(t)","lat":48.503,"lon":2.25,"parked":{"lat":48.5,"lon":2.25,"fences":[]},"#
            ),
            (
                .tracker(.overspeedStart(time: t0, at: home, limitKmh: 50, speedMps: 13.8889)),
                #"{"event":"overspeed_start","time":"\#(t)","lat":48.5,"lon":2.25,"limit_kmh":50.0,"speed_mps":13.89,"#
            ),
            (
                .tracker(
                    .overspeedEnd(
                        time: t0, at: home, limitKmh: 50, maxSpeedMps: 16.666, durationS: 12.04, distanceM: 180.26)),
                #"{"event":"overspeed_end","time":"\#(t)","lat":48.5,"lon":2.25,"limit_kmh":50.0,"max_speed_mps":16.67,"duration_s":12.0,"distance_m":180.3,"#
            ),
            (
                .tracker(.discontinuity(time: t0, at: home, counted: false)),
                #"{"event":"discontinuity","time":"\#(t)","lat":48.5,"lon":2.25,"counted":false,"#
            ),
            (
                .tracker(.fixAcquired(time: t0, at: home, device: "/dev/ttyACM0")),
                #"{"event":"fix_acquired","time":"\#(t)","lat":48.5,"lon":2.25,"device":"/dev/ttyACM0","#
            ),
            (
                .tracker(.fixLost(time: t0, reason: .stale(seconds: 15.2), device: nil)),
                #"{"event":"fix_lost","time":"\#(t)","reason":"stale","device":null,"#
            ),
            (
                .tracker(.fixLost(time: nil, reason: .gpsdLost, device: "/dev/ttyACM0")),
                #"{"event":"fix_lost","time":null,"reason":"gpsd_lost","device":"/dev/ttyACM0","#
            ),
            (
                .tracker(.anchor(.dropped(time: t0, anchor: home, radiusM: 49.54))),
                #"{"event":"anchor_dropped","time":"\#(t)","anchor_lat":48.5,"anchor_lon":2.25,"radius_m":49.5,"#
            ),
            (
                .tracker(
                    .anchor(.warning(time: t0, at: Coordinate(latitude: 48.5003, longitude: 2.25), distanceM: 40.06))),
                #"{"event":"anchor_warning","time":"\#(t)","lat":48.5003,"lon":2.25,"distance_m":40.1,"#
            ),
            (
                .tracker(.anchor(.alarm(time: t0, at: home, distanceM: 61.04, repeat: 2))),
                #"{"event":"anchor_alarm","time":"\#(t)","lat":48.5,"lon":2.25,"distance_m":61.0,"repeat":2,"#
            ),
            (
                .tracker(.anchor(.noPosition(time: t0, silentS: 60.04, repeat: 0))),
                #"{"event":"anchor_no_position","time":"\#(t)","silent_s":60.0,"repeat":0,"#
            ),
            (.tracker(.anchor(.acknowledged(time: t0))), #"{"event":"anchor_ack","time":"\#(t)","#),
            (
                .tracker(
                    .guardRepeat(
                        time: t0, at: Coordinate(latitude: 48.501, longitude: 2.25), parkedAt: home, distanceM: 130.04,
                        speedMps: nil, repeat: 3)),
                #"{"event":"guard_breach","time":"\#(t)","lat":48.501,"lon":2.25,"distance_m":130.0,"parked":{"lat":48.5,"lon":2.25,"fences":[]},"repeat":3,"#
            ),
            (.tracker(.guardAck(time: t0)), #"{"event":"guard_ack","time":"\#(t)","#),
            (
                .tracker(.guardNoPosition(time: t0, silentS: 300.04, repeat: 2)),
                #"{"event":"guard_no_position","time":"\#(t)","silent_s":300.0,"repeat":2,"#
            ),
            (
                .tracker(.anchor(.raised(time: t0, maxDistanceM: 77.777))),
                #"{"event":"anchor_raised","time":"\#(t)","max_distance_m":77.8,"#
            ),
            (
                .tracker(.input(.ignitionOn(time: t0, at: home))),
                #"{"event":"ignition_on","time":"\#(t)","lat":48.5,"lon":2.25,"#
            ),
            (
                .tracker(.input(.ignitionOff(time: t0, at: home, engineS: 723.46, engineTotalS: 9000.04))),
                #"{"event":"ignition_off","time":"\#(t)","lat":48.5,"lon":2.25,"engine_s":723.5,"engine_total_s":9000.0,"#
            ),
            (
                .tracker(.input(.powerLost(time: t0, at: home, batteryPct: 91, volts: 11.906))),
                #"{"event":"power_lost","time":"\#(t)","lat":48.5,"lon":2.25,"battery_pct":91,"volts":11.91,"#
            ),
            (
                .tracker(.input(.powerRestored(time: t0, at: nil, batteryPct: nil, volts: nil))),
                #"{"event":"power_restored","time":"\#(t)","#
            ),
            (
                .tracker(.input(.batteryLow(time: t0, at: home, batteryPct: 19))),
                #"{"event":"battery_low","time":"\#(t)","lat":48.5,"lon":2.25,"battery_pct":19,"#
            ),
            (
                .tracker(.input(.sos(time: t0, at: home, repeat: 2))),
                #"{"event":"sos","time":"\#(t)","lat":48.5,"lon":2.25,"repeat":2,"#
            ),
            (.tracker(.input(.sosAck(time: t0))), #"{"event":"sos_ack","time":"\#(t)","#),
        ]
    }

    @Test func everyKindHasItsLineAndReadsBackAsItself() throws {
        var lines: [String] = []
        var typed: [EventLine] = []
        for (i, (event, head)) in try Self.everyKind().enumerated() {
            let e = TrackingSession.Sequenced(seq: UInt64(i + 1), event: event)
            let expected = head + #""seq":\#(i + 1)}"#
            let line = EventJSON.encode(e)
            #expect(line == expected)
            // gpstrackctl's reading: the same value, as an event and as a watch line.
            let back = try ReplyDecoder.decode(EventLine.self, line: line)
            #expect(back == EventJSON.line(e), "\(line)")
            #expect(try ReplyDecoder.decode(WatchLine.self, line: line) == .event(back))
            #expect(ReplyEncoder.encode(back) == expected, "read and written again, the line is unchanged")
            #expect(EventLine.Body.names.contains(back.body.name))
            lines.append(line)
            typed.append(back)
        }
        // The `events` reply: the stored lines, in a list.
        let reply = ReplyEncoder.encode(EventsReply(events: typed))
        #expect(reply == #"{"ok":true,"events":["# + lines.joined(separator: ",") + "]}")
        #expect(try ReplyDecoder.decode(EventsReply.self, line: reply) == EventsReply(events: typed))
        #expect(Set(typed.map(\.body.name)) == EventLine.Body.names, "every kind is in the test")
    }

    /// A notice (the daemon's own news on `watch`): name, message, then the journal's fields as
    /// the entry has them; read back, in name order.
    @Test func aNoticeKeepsItsFields() throws {
        let notice = NoticeLine(
            event: "pedometer_found", message: "Pedometer: \"lsm6dsl\"",
            fields: [.init("source", "iio:device0"), .init("kind", "counter")])
        let line = ReplyEncoder.encode(notice)
        #expect(
            line
                == #"{"event":"pedometer_found","message":"Pedometer: \"lsm6dsl\"","source":"iio:device0","kind":"counter"}"#
        )
        let back = try ReplyDecoder.decode(WatchLine.self, line: line)
        #expect(
            back
                == .notice(
                    NoticeLine(
                        event: "pedometer_found", message: "Pedometer: \"lsm6dsl\"",
                        fields: [.init("kind", "counter"), .init("source", "iio:device0")])))
        if case .notice(let n) = back { #expect(n["source"] == "iio:device0" && n["gpsd"] == nil) }
        #expect(
            try ReplyDecoder.decode(WatchLine.self, line: #"{"event":"gpsd_lost","message":"Lost gpsd"}"#)
                == .notice(NoticeLine(event: "gpsd_lost", message: "Lost gpsd")))
    }

    /// A line that does not read is an error naming the field, never a trap and never a notice.
    @Test func aLineThatDoesNotReadNamesTheField() {
        let t = "2026-03-14T08:00:00.000Z"
        let cases: [(String, any Decodable.Type, String)] = [
            (
                #"{"event":"enter","fence":"home","name":null,"time":"\#(t)","lat":"48.5","lon":2,"seq":1}"#,
                EventLine.self, "lat"
            ),
            (#"{"event":"trip_start","time":"\#(t)","lat":1,"lon":2}"#, EventLine.self, "seq"),
            (#"{"event":"warp","seq":1}"#, EventLine.self, "event"),
            (
                #"{"event":"state","fence":"a","name":null,"time":"\#(t)","lat":null,"lon":null,"seq":1}"#,
                EventLine.self, "state"
            ),
            (#"{"event":"trip_end","trip":1.5,"seq":2}"#, WatchLine.self, "trip"),
            (#"{"event":"enter","fence":"a","seq":1}"#, WatchLine.self, "name"),
            (#"{"event":"gpsd_lost","message":"Lost gpsd","gpsd":2947}"#, WatchLine.self, "gpsd"),
            (#"{"event":"gpsd_lost"}"#, WatchLine.self, "message"),
            (#"{"message":"x"}"#, WatchLine.self, "event"),
            (
                #"{"ok":true,"events":[{"event":"guard_breach","time":"\#(t)","lat":1,"lon":2,"distance_m":3,"parked":{"lat":1,"lon":2},"seq":2}]}"#,
                EventsReply.self, "events[0].parked.fences"
            ),
            (
                #"{"ok":true,"events":[{"event":"fences_determined","inside":1,"outside":0,"unknown":0,"seq":2}]}"#,
                EventsReply.self, "events[0].time"
            ),
        ]
        for (line, type, path) in cases {
            do {
                _ = try ReplyDecoder.decode(type, line: line)
                Issue.record("\(line) read as \(type)")
            } catch {
                #expect(error.path == path, "\(line): \(error)")
            }
        }
    }

    static var ctl: String {
        URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent().appendingPathComponent("gpstrackctl")
            .path
    }

    /// gpstrackctl prints every kind for people (after the local time), then stops at a watch
    /// line it cannot read: exit 76, the field named, the line not printed.
    @Test func gpstrackctlReadsEveryWatchLineAndStopsAtABadOne() throws {
        let kinds = try Self.everyKind().enumerated().map { i, k in
            EventJSON.encode(TrackingSession.Sequenced(seq: UInt64(i + 1), event: k.0))
        }
        let notice = ReplyEncoder.encode(
            NoticeLine(
                event: "gpsd_lost", message: "Lost gpsd: refused; retrying",
                fields: [.init("gpsd", "127.0.0.1:2947")]))
        let bad = #"{"event":"exit","fence":"gate","name":null,"time":"2026-03-14T08:00:00.000Z","lat":1,"lon":null}"#
        let stream = ([ReplyEncoder.encode(WatchReply())] + kinds + [notice, bad]).joined(separator: "\n")
        for json in [false, true] {
            let sock = FileManager.default.temporaryDirectory.appendingPathComponent(
                "ctl-watch-\(getpid())-\(json).sock"
            ).path
            let server = try OneReplyServer(path: sock, reply: stream)
            let r = try ExecutableRunner.run(
                ["--socket", sock] + (json ? ["--json"] : []) + ["watch"], executable: Self.ctl)
            server.wait()
            #expect(r.status == 76, "exit \(r.status), \(r.stderr)")
            #expect(
                r.stderr.contains("watch line") && r.stderr.contains("\"seq\" is missing")
                    && r.stderr.contains("cannot read"), "\(r.stderr)")
            let out = r.lines
            #expect(out.count == kinds.count + 2, "the first line, every event and the notice: \(r.stdout)")
            if json {
                #expect(Array(out.dropFirst()) == kinds + [notice], "--json prints the lines as they came")
                continue
            }
            // For people: the local time (varies with TZ), two spaces, then what happened
            // (positions rounded to 6 decimals and written as Swift writes the Double).
            let texts = out.dropFirst().map { $0.split(separator: "  ", maxSplits: 1).last.map(String.init) ?? "" }
            let expected = [
                "enter home (Home) at 48.5,2.25  #1",
                "exit gate (crossed between fixes) at 48.5,2.0  #2",
                "dwell home (Home) at 48.5,2.25  #3",
                "state home (Home) unknown  #4",
                "fences_determined: 1 inside, 2 outside, 0 unknown  #5",
                "trip_start at 48.5,2.25  #6",
                "trip_start 4 at 48.5,2.25  #7",
                "trip_end 4: Home → Work/Car \"park\", 5000 m in 600 s (from \(CtlTime.local(Self.t0)))  #8",
                "trip_stop  #9",
                "trip_stop  #10",
                "guard_armed at 48.5,2.25  #11",
                "guard_breach, 130 m, 4 km/h at 48.501,2.25  #12",
                "guard_arm_refused at 48.503,2.25  #13",
                "overspeed_start, limit 50 km/h, 50 km/h at 48.5,2.25  #14",
                "overspeed_end, 180 m, limit 50 km/h, 60 km/h at 48.5,2.25  #15",
                "discontinuity at 48.5,2.25  #16",
                "fix_acquired from /dev/ttyACM0 at 48.5,2.25  #17",
                "fix_lost (stale)  #18",
                "fix_lost (gpsd lost) from /dev/ttyACM0  #19",
                "anchor_dropped, radius 50 m at 48.5,2.25  #20",
                "anchor_warning, 40 m from the anchor at 48.5003,2.25  #21",
                "anchor_alarm, 61 m from the anchor (said again: 2) at 48.5,2.25  #22",
                "anchor_no_position, no position for 60 s  #23",
                "anchor_ack  #24",
                "guard_breach (said again: 3), 130 m at 48.501,2.25  #25",
                "guard_ack  #26",
                "guard_no_position, no position for 300 s (said again: 2)  #27",
                "anchor_raised, at most 78 m from the anchor  #28",
                "ignition_on at 48.5,2.25  #29",
                "ignition_off, engine 724 s (9000 s in all) at 48.5,2.25  #30",
                "power_lost, battery 91 %, 11.9 V at 48.5,2.25  #31",
                "power_restored  #32",
                "battery_low, battery 19 % at 48.5,2.25  #33",
                "sos (said again: 2) at 48.5,2.25  #34",
                "sos_ack  #35",
                "gpsd_lost: Lost gpsd: refused; retrying",
            ]
            #expect(texts == expected, "\(r.stdout)")
            #expect(out.last?.hasPrefix("-  gpsd_lost") == true, "a notice without a time: \(out.last ?? "")")
        }
    }

    /// An `events` reply with an event gpstrackctl cannot read: exit 76, the field named, nothing printed.
    @Test func gpstrackctlSaysWhichEventOfABadEventsReply() throws {
        let good = EventJSON.encode(TrackingSession.Sequenced(seq: 1, event: try Self.everyKind()[0].0))
        let reply = #"{"ok":true,"events":[\#(good),{"event":"trip_stop","traveled_m":1.0,"seq":2}]}"#
        for json in [false, true] {
            let sock = FileManager.default.temporaryDirectory.appendingPathComponent(
                "ctl-events-\(getpid())-\(json).sock"
            ).path
            let server = try OneReplyServer(path: sock, reply: reply)
            let r = try ExecutableRunner.run(
                ["--socket", sock] + (json ? ["--json"] : []) + ["events"], executable: Self.ctl)
            server.wait()
            #expect(r.status == 76, "exit \(r.status), \(r.stderr)")
            #expect(r.stderr.contains("\"events[1].time\"") && r.stderr.contains("cannot read"), "\(r.stderr)")
            #expect(r.stdout.isEmpty, "nothing printed from a bad reply: \(r.stdout)")
        }
    }
}

/// The local time as gpstrackctl prints it (`%Y-%m-%d %H:%M:%S`).
enum CtlTime {
    static func local(_ t: Double) -> String {
        var secs = time_t(t)
        var tm = tm()
        localtime_r(&secs, &tm)
        var buf = [CChar](repeating: 0, count: 64)
        let n = strftime(&buf, buf.count, "%Y-%m-%d %H:%M:%S", &tm)
        return String(decoding: buf.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The daemon's `events`: stored rows are read back as `EventLine`s; a row that does not read
/// (another version's, or damaged) is left out of the reply and said so in the journal.
@Suite(.serialized, .needsLiveParts)
struct StoredEventLineTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func aStoredEventThatDoesNotReadIsLeftOutAndSaidSo() throws {
        let first = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"])
        try first.waitFor("started", timeout: 20)
        #expect(first.stop() == 0)
        let good =
            #"{"event":"enter","fence":"home","name":"Home","time":"2026-03-14T08:00:00.000Z","lat":48.5,"lon":2.25,"seq":1}"#
        let bad = #"{"event":"enter","fence":"home","time":"2026-03-14T08:00:01.000Z","seq":2}"#
        let insert =
            "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
            + "c.executemany('INSERT INTO events (seq, time, event, fence, json) VALUES (?, ?, ?, ?, ?)', "
            + "[(1, 1773475200.0, 'enter', 'home', sys.argv[2]), (2, 1773475201.0, 'enter', 'home', sys.argv[3])])\nc.commit()"
        let r = try ExecutableRunner.run(
            ["-c", insert, first.stateDirectory + "/gpstrackd.db", good, bad], executable: "/usr/bin/python3")
        #expect(r.status == 0, "\(r.stderr)")

        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"],
            stateDirectory: first.stateDirectory)
        try daemon.waitFor("started", timeout: 20)
        let ctl = URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent().appendingPathComponent(
            "gpstrackctl"
        ).path
        let events = try ExecutableRunner.run(["--socket", daemon.socketPath, "--json", "events"], executable: ctl)
        #expect(events.status == 0, "\(events.stderr)")
        #expect(
            events.stdout == #"{"ok":true,"events":["# + good + "]}\n",
            "the good row as it was stored, the bad one left out")
        try daemon.waitFor("events_unreadable", timeout: 10)
        let said = try daemon.entries("events_unreadable")
        #expect(said.count == 1 && said.first?["PRIORITY"] as? String == "4", "\(said)")
        #expect(
            (said.first?["MESSAGE"] as? String)?.contains(#"1 stored events do not read as events"#) == true
                && (said.first?["MESSAGE"] as? String)?.contains(#""name" is missing"#) == true, "\(said)")
        #expect(daemon.stop() == 0)
    }
}
