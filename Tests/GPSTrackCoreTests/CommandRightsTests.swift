import GPSTrackCore
import Testing

/// Readers are not admins (issue 38): who may send each command comes from one table.
@Suite struct CommandRightsTests {
    @Test func adminGroupIsNoneUnlessNamed() throws {
        #expect(Configuration().adminGroup == nil)
        #expect(try ConfigParser.parse("socket_group = gpstrack\n", file: "t.conf").adminGroup == nil)
        #expect(try ConfigParser.parse("admin_group = wheel\n", file: "t.conf").adminGroup == "wheel")
    }

    @Test func everyCommandThatChangesStateNeedsAnAdministratorOnTheSocket() {
        // Written out by hand from the issue: these change what the daemon does.
        for name in [
            "start", "stop", "reset", "reload", "guard", "guard_ack", "anchor drop", "anchor raise", "anchor ack",
        ] {
            #expect(CommandRights.socketNeedsAdmin(name), "\(name)")
        }
        for name in ["status", "fences", "state", "watch", "trips", "stops", "events", "steps", "export", "anchor"] {
            #expect(!CommandRights.socketNeedsAdmin(name), "\(name)")
        }
        #expect(CommandRights.socketNeedsAdmin("a command nobody listed"))
        for row in CommandRights.table where row.channel == .socket {
            #expect(row.changes == (row.sender == .admin), "\(row.name)")
        }
    }

    @Test func theBrokerDefaultAllowsOnlyReports() {
        #expect(Set(MQTTConfig().commandAllow) == ["reportLocation", "status", "waypoints"])
        for row in CommandRights.table where row.channel == .broker && row.changes {
            #expect(row.sender == .allowList, "\(row.name) changes state: never allowed by default")
        }
        #expect(Set(MQTTConfig.commandActions).isSuperset(of: ["setFences", "setWaypoints", "guard", "trip", "dump"]))
        #expect(!MQTTConfig.commandActions.contains("reportSteps"), "runs always; not for the allow list")
    }
}
