import GPSTrackCore
import GPSTrackVocabulary
import Testing

/// Readers are not admins (issue 38): who may send each command comes from one table.
@Suite struct CommandRightsTests {
    @Test func adminGroupIsNoneUnlessNamed() throws {
        #expect(Configuration().adminGroup == nil)
        #expect(try ConfigParser.parse("socket_group = gpstrack\n", file: "t.conf").adminGroup == nil)
        #expect(try ConfigParser.parse("admin_group = wheel\n", file: "t.conf").adminGroup == "wheel")
    }

    @Test func everyCommandThatChangesStateNeedsAnAdministratorOnTheSocket() throws {
        // Written out by hand from the issue: these change what the daemon does.
        for name in [
            "start", "stop", "reset", "reload", "guard", "guard_ack", "anchor drop", "anchor raise", "anchor ack",
        ] {
            #expect(try CommandRights.socketNeedsAdmin(Self.socket(name)), "\(name)")
        }
        for name in ["status", "fences", "state", "watch", "trips", "stops", "events", "steps", "export", "anchor"] {
            #expect(try !CommandRights.socketNeedsAdmin(Self.socket(name)), "\(name)")
        }
        // A name outside the vocabulary is no command at all (the socket refuses it as unknown).
        #expect(CommandName.Socket(rawValue: "a command nobody listed") == nil)
        for row in CommandRights.table where row.channel == .socket {
            #expect(row.changes == (row.sender == .admin), "\(row.name)")
        }
    }

    /// A socket command by the name the table writes: `cmd`, or `anchor` and a verb.
    static func socket(_ name: String) throws -> CommandRights.Command {
        let words = name.split(separator: " ").map(String.init)
        if words.count == 2, words[0] == "anchor" {
            return .socketAnchor(try #require(CommandName.AnchorVerb(rawValue: words[1]), "\(name)"))
        }
        return .socket(try #require(CommandName.Socket(rawValue: name), "\(name)"))
    }

    @Test func theBrokerDefaultAllowsOnlyReports() {
        #expect(Set(MQTTConfig().commandAllow.map(\.rawValue)) == ["reportLocation", "status", "waypoints"])
        for row in CommandRights.table where row.channel == .broker && row.changes {
            #expect(row.sender == .allowList, "\(row.name) changes state: never allowed by default")
        }
        let actions = Set(MQTTConfig.commandActions.map(\.rawValue))
        #expect(actions.isSuperset(of: ["setFences", "setWaypoints", "guard", "trip", "dump"]))
        #expect(!actions.contains("reportSteps"), "runs always; not for the allow list")
    }

    @Test func theAllowListIsReadIntoTheVocabularyAndAnUnknownNameNamesFileAndLine() throws {
        let c = try ConfigParser.parse(
            "mqtt_commands = on\nmqtt_command_allow = status , setFences,trip\n", file: "a.conf")
        #expect(c.mqtt.commandAllow == [.status, .setFences, .trip])
        // The known list written out from docs/SECURITY.md's table: the broker's allow-list actions.
        let known = "reportLocation, status, waypoints, dump, setWaypoints, setFences, guard, trip, reload, anchor"
        for bad in ["selfDestruct", "reportSteps", "set_fences", "Status"] {
            do {
                _ = try ConfigParser.parse("# x\nmqtt_command_allow = status,\(bad)\n", file: "a.conf")
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.file == "a.conf" && error.line == 2, "\(error)")
                #expect(error.message == "mqtt_command_allow: unknown action '\(bad)' (known: \(known))", "\(error)")
            }
        }
    }
}
