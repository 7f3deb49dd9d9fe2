import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

/// The MQTT messages and the control request line as bytes, each expected line written by hand
/// from gpstrackd(8)'s MQTT sections (members, their order as published, `null`s, omissions,
/// `12.0`-style numbers): in-process, no broker.
struct BrokerWireTests {
    static let dock = Fix(
        mode: 3, time: 1_796_122_538, latitude: 47.3769, longitude: 8.545, altitude: 408.6, eph: 4.4, speed: 5,
        track: 359.6)

    @Test func locationHasEveryMemberTheFixGives() {
        #expect(
            OwnTracks.location(
                Self.dock, time: 1_796_122_538, tid: "gt", assumedErrorM: 10, inRegions: ["Dock", "Zürich \"HQ\""])
                == #"{"_type":"location","tid":"gt","lat":47.3769,"lon":8.545,"tst":1796122538,"acc":4,"alt":409,"vel":18,"cog":0,"t":"t","inregions":["Dock","Zürich \"HQ\""]}"#
        )
    }

    @Test func locationLeavesOutWhatTheFixLacks() {
        let bare = Fix(mode: 2, time: 100, latitude: 47, longitude: 8)
        #expect(
            OwnTracks.location(bare, time: 100, tid: "gt", assumedErrorM: 10, inRegions: nil, trigger: "r")
                == #"{"_type":"location","tid":"gt","lat":47.0,"lon":8.0,"tst":100,"acc":10,"t":"r"}"#)
        #expect(
            OwnTracks.location(bare, time: 100, tid: "gt", assumedErrorM: 10, inRegions: [])
                == #"{"_type":"location","tid":"gt","lat":47.0,"lon":8.0,"tst":100,"acc":10,"t":"t","inregions":[]}"#)
    }

    /// An Int would trap on these: the daemon ended on the first such fix with MQTT on.
    @Test func locationLeavesOutFiguresNoIntegerHolds() {
        let wild = Fix(mode: 3, time: 100, latitude: 47, longitude: 8, altitude: 1e30, speed: 1e300, track: -1e25)
        #expect(
            OwnTracks.location(wild, time: 100, tid: "gt", assumedErrorM: 10, inRegions: nil)
                == #"{"_type":"location","tid":"gt","lat":47.0,"lon":8.0,"tst":100,"acc":10,"t":"t"}"#)
    }

    @Test func transitionWritesAnUnknownPositionAsNull() {
        #expect(
            OwnTracks.transition(
                tid: "gt", enter: false, desc: "Dock", rid: "dock", wtst: 1_700_000_000, time: 1_796_122_538.9,
                at: nil, acc: 5)
                == #"{"_type":"transition","tid":"gt","event":"leave","desc":"Dock","rid":"dock","wtst":1700000000,"tst":1796122538,"lat":null,"lon":null,"acc":5,"t":"c"}"#
        )
        #expect(
            OwnTracks.transition(
                tid: "gt", enter: true, desc: "Dock", rid: "dock", wtst: 1, time: 2,
                at: Coordinate(latitude: 47.5, longitude: 8.25), acc: 1)
                == #"{"_type":"transition","tid":"gt","event":"enter","desc":"Dock","rid":"dock","wtst":1,"tst":2,"lat":47.5,"lon":8.25,"acc":1,"t":"c"}"#
        )
    }

    @Test func waypointsAreTheCirclesOnly() {
        let fences = [
            Fence(
                index: 0, id: "dock",
                shape: .circle(center: Coordinate(latitude: 47.3769, longitude: 8.545), radiusM: 39.6)),
            Fence(
                index: 1, id: "lake", name: "Lake",
                shape: .polygons([[[Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1)]]])),
        ]
        #expect(
            OwnTracks.waypoints(fences, loadedAt: 1_700_000_000)
                == #"{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"dock","lat":47.3769,"lon":8.545,"rad":40,"rid":"dock","tst":1700000000}]}"#
        )
        #expect(OwnTracks.waypoints([], loadedAt: 1) == #"{"_type":"waypoints","waypoints":[]}"#)
    }

    @Test func commandResults() {
        // gpstrackd(8)'s refusal, byte for byte, and one that named no action.
        #expect(
            ReplyEncoder.encode(
                BrokerMessage.Refused(
                    action: "reload", reason: "reload is not in mqtt_command_allow", tst: 1_796_122_538))
                == #"{"_type":"cmdresult","action":"reload","result":"refused","reason":"reload is not in mqtt_command_allow","tst":1796122538}"#
        )
        #expect(
            ReplyEncoder.encode(BrokerMessage.Refused(action: nil, reason: "not JSON", tst: 1))
                == #"{"_type":"cmdresult","action":null,"result":"refused","reason":"not JSON","tst":1}"#)
        var waiting = GuardStatus()
        waiting.state = "waiting"
        #expect(
            ReplyEncoder.encode(
                BrokerMessage.CommandResult(
                    action: "guard", cmd: .guard(true), outcome: .success("guard on"),
                    reply: GuardReply(guard: waiting),
                    tst: 7))
                == #"{"_type":"cmdresult","action":"guard","cmd":{"_type":"cmd","action":"guard","on":true},"result":"done","reply":{"ok":true,"guard":{"state":"waiting"}},"tst":7}"#
        )
        #expect(
            ReplyEncoder.encode(
                BrokerMessage.CommandResult(
                    action: "reportLocation", cmd: .reportLocation, outcome: .failure(ControlError("no fix yet")),
                    reply: nil, tst: 7))
                == #"{"_type":"cmdresult","action":"reportLocation","cmd":{"_type":"cmd","action":"reportLocation"},"result":"failed","reason":"no fix yet","tst":7}"#
        )
        // A pushed set is not echoed; its counts are the reply.
        #expect(
            ReplyEncoder.encode(
                BrokerMessage.CommandResult(
                    action: "setWaypoints", cmd: nil, outcome: .success("1 waypoints pushed"),
                    reply: BrokerMessage.Pushed(pushed: 1, fences: 2), tst: 7))
                == #"{"_type":"cmdresult","action":"setWaypoints","result":"done","reply":{"ok":true,"pushed":1,"fences":2},"tst":7}"#
        )
    }

    @Test func statusIsItsThreeMembersThenTheStatusReplys() throws {
        let line = ReplyEncoder.encode(
            BrokerMessage.Status(tst: 9, fencesLoaded: 3, lastError: nil, reply: StatusReply()))
        let head = #"{"_type":"status","tst":9,"fences_loaded":3,"last_error":null,"ok":true,"#
        #expect(line.hasPrefix(head), "\(line)")
        // One flat object that reads back as the status reply.
        let reply = try ReplyDecoder.decode(StatusReply.self, line: line)
        #expect(reply == StatusReply())
        let failed = ReplyEncoder.encode(
            BrokerMessage.Status(tst: 9, fencesLoaded: 0, lastError: "refused: x", reply: StatusReply()))
        #expect(failed.hasPrefix(#"{"_type":"status","tst":9,"fences_loaded":0,"last_error":"refused: x","ok":true,"#))
    }

    @Test func willAndEnvelope() {
        #expect(ReplyEncoder.encode(BrokerMessage.LastWill(tst: 1_796_122_538)) == #"{"_type":"lwt","tst":1796122538}"#)
        #expect(
            ReplyEncoder.encode(BrokerMessage.Encrypted(data: "AAEC+/=="))
                == #"{"_type":"encrypted","data":"AAEC+/=="}"#)
    }

    @Test func canonicalCommands() {
        let drop = AnchorCommand.Drop(radiusM: 40, rodeM: 35, depthM: 5)
        #expect(
            MQTTCommand.anchor(.drop(drop)).json
                == #"{"_type":"cmd","action":"anchor","anchor":"drop","radius":40.0,"rode":35.0,"depth":5.0}"#)
        #expect(MQTTCommand.anchor(.status).json == #"{"_type":"cmd","action":"anchor","anchor":"status"}"#)
        #expect(
            MQTTCommand.reportSteps(from: 1_700_000_000, to: nil).json
                == #"{"_type":"cmd","action":"reportSteps","from":1700000000.0}"#)
        let dock = MQTTCommand.Waypoint(rid: "dock", desc: "Dock", lat: 47.3769, lon: 8.545, rad: 40)
        #expect(
            MQTTCommand.setWaypoints([dock]).json
                == #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"_type":"waypoint","desc":"Dock","lat":47.3769,"lon":8.545,"rad":40.0,"rid":"dock"}]}"#
        )
        // The pushed collection with its members in the order of their names.
        let collection = JSONValue.object(["type": .string("FeatureCollection"), "features": .array([])])
        #expect(
            MQTTCommand.setFences(.init(collection: collection, fences: [])).json
                == #"{"_type":"cmd","action":"setFences","fences":{"features":[],"type":"FeatureCollection"}}"#)
    }

    @Test func requestLines() {
        let t = 1_773_475_200.0  // 2026-03-14T08:00:00Z
        #expect(
            ControlRequest.exportPage(
                ExportScope(trip: 3, since: t, until: nil, anchor: true), after: 10, limit: 500
            ).line
                == #"{"cmd":"export_page","trip":3,"since":"2026-03-14T08:00:00.000Z","anchor":true,"after":10,"limit":500}"#
        )
        #expect(
            ControlRequest.export(trip: nil, since: nil, until: t).line
                == #"{"cmd":"export","format":"gpx","until":"2026-03-14T08:00:00.000Z"}"#)
        #expect(ControlRequest.events(since: nil, fence: "dock").line == #"{"cmd":"events","fence":"dock"}"#)
        #expect(
            ControlRequest.anchor(.drop(.init(radiusM: 40, bearing: -90, distanceM: 25))).line
                == #"{"cmd":"anchor","action":"drop","radius_m":40.0,"bearing":-90.0,"distance_m":25.0}"#)
        #expect(ControlRequest.anchor(.status).line == #"{"cmd":"anchor"}"#)
        #expect(ControlRequest.guard(false).line == #"{"cmd":"guard","on":false}"#)
    }

    @Test func configurationDumpKeepsTheDocumentedOrder() {
        let line = ConfigurationDump.json(Configuration(), tst: 5)
        #expect(
            line.hasPrefix(
                #"{"_type":"configuration","tst":5,"gpstrackd":{"gpsd":"localhost:2947","device":null,"fences":null,"socket":"/run/gpstrackd/gpstrackd.sock","state_dir":"/var/lib/gpstrackd","socket_group":"gpstrack","mqtt_host":null,"mqtt_port":1883,"#
            ), "\(line)")
        #expect(
            line.contains(#""mqtt_commands":false,"mqtt_command_allow":["reportLocation","status","waypoints"]"#),
            "\(line)")
        #expect(line.contains(#""no_data_timeout_s":10.0,"#), "\(line)")
        #expect(!line.contains("origins"))
        #expect(line.contains(#""anchor_margin_m":15.0,"input_ignition":null,"#), "\(line)")
        #expect(
            line.hasSuffix(
                #""map_tiles_url":"none","map_tiles_attribution":"© OpenStreetMap contributors","ha_discovery":false,"ha_discovery_prefix":"homeassistant","ha_node_id":null,"ha_min_interval_s":10.0,"ha_discovery_plaintext":false}}"#
            ),
            "\(line)")
    }
}
