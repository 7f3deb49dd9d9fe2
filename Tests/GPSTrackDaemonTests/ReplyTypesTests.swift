import Foundation
import GPSTrackJSON
import GPSTrackProtocol
import Testing

/// The control socket's replies are types of GPSTrackProtocol: the daemon encodes them, gpstrackctl
/// decodes them (issue 13). Every type reads back as itself, the line is the one the socket has
/// always written (key order, `null` against absent, number text), and a reply that does not read
/// is an error naming the field.
@Suite struct ReplyTypesTests {
    static func place(_ lat: Double, _ lon: Double, _ fences: [String]) -> Place {
        Place(lat: lat, lon: lon, fences: fences)
    }

    static var status: StatusReply {
        var r = StatusReply()
        r.gpsd.connected = true
        r.gpsd.device = "/dev/ttyACM0"
        r.gpsd.address = "127.0.0.1:2947"
        r.gpsd.droppedFixes = 12
        r.gpsd.droppedMalformed = 0
        var fix = StatusReply.FixStatus()
        fix.mode = 3
        fix.time = "2026-03-14T08:02:38.000Z"
        fix.lat = 48.858222
        fix.lon = 2.2945
        fix.eph = 4.25
        fix.speed = nil
        fix.track = 271.5
        fix.courseText = "west"
        fix.ageS = 0.4
        r.fix = fix
        r.trip.state = "running"
        r.trip.startedAt = "2026-03-14T07:50:00.000Z"
        r.trip.start = LatLon(lat: 48.85, lon: 2.29)
        r.trip.traveledM = 1234.56
        r.trip.straightLineM = 1000
        r.motion = StatusReply.MotionStatus(state: "moving", since: nil)
        var open = AutoTrip(
            id: 7, state: "open", startedAt: "2026-03-14T07:51:00.000Z", from: place(48.85, 2.29, ["Home"]),
            traveledM: 900.5)
        open.durationS = 698
        r.currentTrip = .some(open)
        var g = GuardStatus()
        g.state = "armed"
        g.armedAt = LatLon(lat: 48.1, lon: 2.2)
        g.since = .some(nil)
        g.radiusM = 25
        r.guard = g
        var f = FenceReport()
        f.id = "home"
        f.name = nil
        f.state = "outside"
        f.since = "2026-03-14T07:52:00.000Z"
        r.fences = [f]
        r.counters.fixesTotal = 300
        r.counters.fixesAccepted = 280
        r.counters.fixesDelivered = 279
        r.counters.fixesRejected = NamedCounts(["too_fast": 1, "stale": 19])
        r.storage.state = "degraded"
        r.storage.reason = "disk I/O error"
        r.storage.path = "/var/lib/gpstrackd/track.db"
        r.storage.droppedEvents = 3
        r.storage.droppedPoints = 40
        var p = PedometerStatus()
        p.source = "iio:device0 (lsm6dsl)"
        p.kind = "counter"
        p.total = 5000
        p.trip = 120
        p.cadenceSpm = 104.5
        p.distanceM = 3600.2
        p.tripDistanceM = 86.4
        p.strideM = 0.72
        p.strideLearned = true
        r.steps = p
        var m = StatusReply.MQTTStatus()
        m.connected = false
        m.outbox = 17
        m.outboxState = "degraded"
        m.outboxReason = "database or disk is full"
        m.broker = "broker.example:8883"
        m.topic = "owntracks/gpstrack/van"
        r.mqtt = m
        r.seq = 42
        r.version = "9.9.9"
        r.uptimeS = 3600.5
        return r
    }

    /// Encodes with the daemon's encoder, decodes as gpstrackctl does, and compares.
    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> String {
        let line = ReplyEncoder.encode(value)
        let back = try ReplyDecoder.decode(T.self, line: line)
        #expect(back == value, "\(T.self) reads back as itself: \(line)")
        // And any JSON reader takes the line.
        #expect(ExecutableRunner.json(line) != nil, "\(line) is a JSON object")
        return line
    }

    @Test func everyReplyReadsBackAsItself() throws {
        _ = try roundTrip(Self.status)
        var quiet = StatusReply()  // no fix, manual trips, no pedometer or MQTT
        quiet.gpsd.address = "gpsd.local:2947"
        _ = try roundTrip(quiet)
        _ = try roundTrip(ErrorReply(error: "unknown fence \"x\\y\"\n"))
        var detailed = FenceReport()
        detailed.id = "depot"
        detailed.name = "Depot, gate 2"
        detailed.kind = "polygon"
        detailed.state = "inside"
        detailed.lastEvent = .some("state:inside")
        _ = try roundTrip(FencesReply(fences: [detailed, FenceReport()]))
        _ = try roundTrip(StateReply(fence: "depot", state: "unknown", since: nil))
        _ = try roundTrip(TripReply(trip: ManualTrip()))
        _ = try roundTrip(ReloadReply(fences: 1000))
        _ = try roundTrip(GuardReply(guard: GuardStatus()))
        _ = try roundTrip(WatchReply())
        var ended = AutoTrip(
            id: 3, state: "ended", startedAt: "2026-03-14T07:00:00.000Z", from: Self.place(1, 2, []), traveledM: 5000)
        ended.endedAt = "2026-03-14T07:30:00.000Z"
        ended.to = Self.place(-33.9, 151.2, ["Work", "Car park"])
        ended.straightLineM = 4100.25
        ended.durationS = 1800
        ended.movingS = 1500.5
        ended.maxSpeedMps = 19.44
        ended.avgSpeedMps = 2.78
        _ = try roundTrip(AutoTripsReply(trips: [ended]))
        _ = try roundTrip(
            StoredTripsReply(trips: [
                StoredTrip(
                    id: 1, state: "stopped", startedAt: nil, endedAt: nil,
                    traveledM: 0, straightLineM: 0, durationS: nil)
            ]))
        _ = try roundTrip(
            StopsReply(stops: [
                StopRow(
                    arrival: "2026-03-14T07:30:00.000Z", departure: nil, durationS: 60,
                    at: Self.place(1, 2, ["Home"]), afterTrip: 3)
            ]))
        _ = try roundTrip(StepsReply(since: nil, steps: 0, distanceM: 0, cadenceSpm: nil, pedometer: nil))
        _ = try roundTrip(ExportReply(points: 2, gpx: "<?xml version=\"1.0\"?>\n<gpx/>"))
        var circle = ExportFence(id: "home", name: "Home", kind: "circle", rings: [])
        circle.lat = 48.1
        circle.lon = 11.5
        circle.radiusM = 80
        let context = ExportContext(
            trips: [ended],
            stops: [
                StopRow(
                    arrival: "2026-03-14T07:30:00.000Z", departure: nil, durationS: nil,
                    at: Self.place(1, 2, []), afterTrip: nil)
            ],
            events: [
                ExportEvent(kind: "enter", fence: "home", name: nil, time: "2026-03-14T07:30:00.000Z", lat: 1, lon: 2)
            ],
            fences: [
                circle,
                ExportFence(
                    id: "yard", name: nil, kind: "polygon", rings: [[[[11, 48], [11.1, 48], [11, 48.1], [11, 48]]]]),
            ],
            bounds: ExportBounds(
                points: 2, first: 1_773_475_358.25, last: 1_773_475_359, minLat: 1, maxLat: 2, minLon: -3, maxLon: 4,
                minAlt: nil, maxAlt: 512.5))
        let point = ExportPoint(
            id: 7, time: 1_773_475_358.25, lat: 48.137, lon: 11.575, alt: nil, eph: 4.5, mode: 3,
            speedMps: 1.25, courseDeg: 359.9, segment: false)
        _ = try roundTrip(ExportPageReply(context: context, points: [point], after: 7))
        _ = try roundTrip(ExportPageReply(empty: "no trip 9", context: nil, points: [], after: nil))
        // Stored events are typed too now (EventLine, see EventLineTests): a stored line goes out as it was stored.
        let stored =
            #"{"event":"enter","fence":"home","name":null,"time":"2026-03-14T07:30:00.000Z","lat":48.0,"lon":2.0,"seq":3}"#
        let events = EventsReply(events: [try ReplyDecoder.decode(EventLine.self, line: stored)])
        let line = ReplyEncoder.encode(events)
        #expect(line == #"{"ok":true,"events":["# + stored + "]}", "stored events go out verbatim")
        let back = try ReplyDecoder.decode(EventsReply.self, line: line)
        guard case .enter(let f) = back.events.first?.body else {
            Issue.record("\(line)")
            return
        }
        #expect(f.fence == "home" && back.events.first?.seq == 3)
    }

    /// The lines the socket wrote before the types (JSONObject by hand): keys in this order, a nil
    /// as `null` where it was null and left out where it was left out, `1000.0` and `3`.
    @Test func theLineIsTheOneTheSocketAlwaysWrote() throws {
        let stop = StopRow(
            arrival: "2026-03-14T07:30:00.000Z", departure: nil, durationS: nil, at: Self.place(48.5, -0.0, []),
            afterTrip: nil)
        #expect(
            ReplyEncoder.encode(StopsReply(stops: [stop]))
                == #"{"ok":true,"stops":[{"arrival":"2026-03-14T07:30:00.000Z","departure":null,"duration_s":null,"at":{"lat":48.5,"lon":-0.0,"fences":[]}}]}"#
        )
        var quiet = StatusReply()
        quiet.gpsd.address = "localhost:2947"
        quiet.trip.state = "running"
        quiet.trip.straightLineM = 1000
        quiet.counters.fixesRejected = NamedCounts(["too_fast": 1, "stale": 2])
        quiet.version = "0.2.0"
        quiet.uptimeS = 12.5
        #expect(
            ReplyEncoder.encode(quiet) == """
                {"ok":true,"gpsd":{"connected":false,"device":null,"address":"localhost:2947","reconnects":0},"receivers":[],"fix":null,\
                "trip":{"state":"running","started_at":null,"start":null,"end":null,"traveled_m":0.0,"straight_line_m":1000.0},\
                "fences":[],"counters":{"fixes_total":0,"fixes_accepted":0,"fixes_delivered":0,"fixes_rejected":{"stale":2,"too_fast":1}},\
                "storage":{"state":"off","reason":null,"path":null},"steps":null,"mqtt":null,"seq":0,"version":"0.2.0","uptime_s":12.5,\
                "events_total":{},"sky":null,"clock_offset_s":null,"today":null,"odometer_m":0.0}
                """)
        // trip_mode = auto: motion, current_trip (null between trips) and guard appear.
        quiet.motion = StatusReply.MotionStatus(state: "stopped", since: "2026-03-14T07:30:00.000Z")
        quiet.currentTrip = .some(nil)
        var g = GuardStatus()
        g.state = "waiting"
        quiet.guard = g
        let auto = ReplyEncoder.encode(quiet)
        #expect(
            auto.contains(
                #""motion":{"state":"stopped","since":"2026-03-14T07:30:00.000Z"},"current_trip":null,"guard":{"state":"waiting"},"fences""#
            ), "\(auto)")
        #expect(ReplyEncoder.encode(ErrorReply(error: "a \"b\"")) == #"{"ok":false,"error":"a \"b\""}"#)
        #expect(
            ReplyEncoder.encode(StateReply(fence: "f", state: "inside", since: nil))
                == #"{"ok":true,"fence":"f","state":"inside","since":null}"#)
        let nan = StepsReply(since: nil, steps: 3, distanceM: .nan, cadenceSpm: .infinity, pedometer: nil)
        #expect(
            ReplyEncoder.encode(nan)
                == #"{"ok":true,"since":null,"steps":3,"distance_m":null,"cadence_spm":null,"pedometer":null}"#,
            "not a number is null, as JSONObject wrote it")
    }

    /// A reply with a field missing or of the wrong type is an error naming the field, never a trap.
    @Test func aReplyThatDoesNotReadNamesTheField() throws {
        let good = ReplyEncoder.encode(Self.status)
        var o = try #require(ExecutableRunner.json(good))
        o["seq"] = nil
        let missing = String(decoding: try JSONSerialization.data(withJSONObject: o), as: UTF8.self)
        #expect(throws: ReplyDecoder.ReplyError.self) { try ReplyDecoder.decode(StatusReply.self, line: missing) }
        do { _ = try ReplyDecoder.decode(StatusReply.self, line: missing) } catch {
            #expect(error.path == "seq" && error.description.contains("missing"), "\(error)")
        }
        let cases: [(String, String)] = [
            (#"{"ok":true,"trips":[{"id":1.5,"state":"ended"}]}"#, "trips[0].id"),
            (#"{"ok":true,"trips":[{"id":"1"}]}"#, "trips[0].id"),
            (
                #"{"ok":true,"stops":[{"arrival":"x","departure":null,"duration_s":null,"at":{"lat":1,"lon":2}}]}"#,
                "stops[0].at.fences"
            ),
            (#"{"ok":true,"fences":7}"#, "fences"),
            (#"{"ok":true,"fence":"a","state":null,"since":null}"#, "state"),
            (#"[1,2]"#, ""),
        ]
        for (line, path) in cases {
            let type: any Decodable.Type =
                line.contains("trips")
                ? AutoTripsReply.self
                : line.contains("stops")
                    ? StopsReply.self
                    : line.contains("\"fence\"") ? StateReply.self : FencesReply.self
            do {
                _ = try ReplyDecoder.decode(type, line: line)
                Issue.record("\(line) read as \(type)")
            } catch {
                #expect(error.path == path, "\(line): \(error)")
            }
        }
    }

    /// gpstrackctl against a socket that answers with a reply it cannot read: exit 76, the field
    /// named, no crash (a trap would be signal 4 or 5 and no message).
    @Test func gpstrackctlSaysWhichFieldOfABadReply() throws {
        let ctl = URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent().appendingPathComponent(
            "gpstrackctl"
        ).path
        var good = try #require(ExecutableRunner.json(ReplyEncoder.encode(Self.status)))
        good["gpsd"] = ["connected": "yes", "device": NSNull(), "address": "x:1"]
        let mistyped = String(decoding: try JSONSerialization.data(withJSONObject: good), as: UTF8.self)
        let replies: [(String, [String], String)] = [
            (mistyped, ["status"], "gpsd.connected"),
            (#"{"ok":true,"fences":[{"id":"a","name":null,"state":"inside"}]}"#, ["fences"], "fences[0].since"),
            (#"{"ok":true,"trip":{"state":"running"}}"#, ["reset"], "trip.started_at"),
            (
                #"{"ok":true,"steps":"many","distance_m":1,"cadence_spm":null,"pedometer":null,"since":null}"#,
                ["steps"], "steps"
            ),
        ]
        for (reply, command, field) in replies {
            for json in [false, true] {
                let sock = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "ctl-bad-\(getpid())-\(field.count).sock"
                ).path
                let server = try OneReplyServer(path: sock, reply: reply)
                let r = try ExecutableRunner.run(
                    ["--socket", sock] + (json ? ["--json"] : []) + command, executable: ctl)
                server.wait()
                #expect(r.status == 76, "\(command) \(reply): exit \(r.status), \(r.stderr)")
                #expect(r.stderr.contains("\"\(field)\"") && r.stderr.contains("cannot read"), "\(r.stderr)")
                #expect(r.stdout.isEmpty, "nothing printed from a bad reply: \(r.stdout)")
            }
        }
    }
}

extension ReplyTypesTests {
    /// A figure beyond Int is valid JSON (1e300): gpstrackctl prints it as it is. Printed
    /// through `Int(_:)`, it trapped (signal 4, nothing on stdout).
    @Test func gpstrackctlPrintsAFigureBeyondIntAsItIs() throws {
        let ctl = URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent().appendingPathComponent(
            "gpstrackctl"
        ).path
        let sock = FileManager.default.temporaryDirectory.appendingPathComponent("ctl-huge-\(getpid()).sock").path
        let server = try OneReplyServer(
            path: sock,
            reply: #"{"ok":true,"steps":12,"distance_m":1e300,"cadence_spm":-1e300,"pedometer":null,"since":null}"#)
        let r = try ExecutableRunner.run(["--socket", sock, "steps"], executable: ctl)
        server.wait()
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(
            r.stdout == "12 steps, 1e+300 m walked, -1e+300 steps/min while walking\n", "\(r.stdout)")
    }
}

/// A Unix socket that answers the first request with one line, then hangs up.
final class OneReplyServer: Sendable {
    private let fd: Int32
    private let done = DispatchSemaphore(value: 0)

    init(path: String, reply: String) throws {
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        let listener = fd
        let done = self.done
        Thread.detachNewThread {
            let c = accept(listener, nil, nil)
            var byte: UInt8 = 0
            while c >= 0, recv(c, &byte, 1, 0) == 1, byte != 10 {}
            let bytes = Array((reply + "\n").utf8)
            _ = bytes.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(c)
            close(listener)
            unlink(path)
            done.signal()
        }
    }

    func wait() { done.wait() }
}
