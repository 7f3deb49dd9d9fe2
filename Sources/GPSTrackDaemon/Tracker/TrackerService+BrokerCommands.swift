import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The broker's command channel (`<base>/cmd`): off by default, the allow list's actions only,
/// every command journaled (`mqtt_command`, notice), every refusal logged and answered on
/// `<base>/cmd/result` within the rate limits of `CommandLimiter`. A command from the broker
/// runs with the allow list's rights alone: the control socket's peer rules do not apply to it
/// and are not widened by it.
extension TrackerService {
    /// An OwnTracks command from `<base>/cmd`, already opened when `mqtt_secret_file` is set.
    /// With `mqtt_commands = off` only `reportSteps` runs (as before the channel); anything else
    /// is ignored, unanswered, its entry (`mqtt_command_ignored`) rate-limited.
    func mqttCommand(_ inbound: InboundCommand) {
        guard let mqtt else { return }
        command(inbound, from: mqtt)
    }

    /// A command from `mqtt` (a broker or an HTTP server, see `CommandChannel`): parsed; an
    /// encrypted one judged for replay (`replayProblem`); rate-limited; run when allowed.
    func command(_ inbound: InboundCommand, from mqtt: any CommandChannel) {
        let parsed = MQTTCommand.parse(inbound.payload)
        // `CommandRights`: what runs even with mqtt_commands = off (reportSteps, as before the channel).
        if case .success(let command) = parsed, CommandRights.sender(.broker(command.name)) == .always {
            if let why = admissionProblem(inbound, mqtt) {
                refuse(.init(action: command.action, reason: why), mqtt)
            } else {
                _ = run(command, mqtt)
            }
            return
        }
        guard mqtt.config.commands else {
            let limit = mqtt.commandLimits.entry("ignored", now: clock())
            guard limit.log else { return }
            emit(
                LogEntry(
                    event: mqtt.ignoredEvent, priority: .info,
                    message: "Command from \(mqtt.commandSource) ignored: mqtt_commands = off",
                    fields: commandFields(mqtt, action: try? parsed.get().action, held: limit.held)))
            return
        }
        switch parsed {
        case .failure(let refusal): refuse(refusal, mqtt)
        case .success(let command) where !mqtt.config.commandAllow.contains(command.name):
            refuse(.init(action: command.action, reason: "\(command.action) is not in mqtt_command_allow"), mqtt)
        case .success(let command):
            if let why = admissionProblem(inbound, mqtt) {
                refuse(.init(action: command.action, reason: why), mqtt)
                return
            }
            let outcome = run(command, mqtt)
            if case .failure(let problem) = outcome {
                mqtt.commandLimits.lastError = "\(command.action): \(problem.message)"
            }
            let did = (try? outcome.get()) ?? "failed: \((outcome.failureMessage ?? ""))"
            emit(
                LogEntry(
                    event: .mqttCommand, priority: .notice,
                    message: "Command \(command.action) from \(mqtt.commandSource): \(did)",
                    fields: commandFields(mqtt, action: command.action) + [(.result, did)]))
        }
    }

    /// Runs an allowed command: what it did, in words, or why it could not.
    private func run(_ command: MQTTCommand, _ mqtt: any CommandChannel) -> Result<String, ControlError> {
        let now = Int(time(nil))
        switch command {
        case .reportSteps(let from, let to):
            stepsSink?.report(from: from, to: to)
            return .success("steps published")
        case .reportLocation:
            guard let fix = session.tracker.lastAccepted, let t = fix.time else {
                return answered(.failure(ControlError("no fix yet")), command, mqtt)
            }
            return .success(reportLocationEverywhere(fix, time: t))
        case .status:
            mqtt.enqueue(
                kind: .status, topic: mqtt.baseTopic + "/status", payload: statusMessage(mqtt, tst: now), qos: 1)
            return .success("status published on \(mqtt.baseTopic)/status")
        case .dump:
            mqtt.enqueue(
                kind: .configuration, topic: mqtt.baseTopic, payload: ConfigurationDump.json(configuration, tst: now),
                qos: 1)
            return .success("configuration published")
        case .waypoints:
            let fences = session.geofences?.index.fences ?? []
            mqtt.enqueue(
                kind: .waypoints, topic: mqtt.baseTopic + "/waypoints",
                payload: OwnTracks.waypoints(fences, loadedAt: ownTracks?.fencesLoadedAt ?? now), qos: 1)
            return .success("waypoints published on \(mqtt.baseTopic)/waypoints")
        case .guard(let on): return controlled(.guard(on), command, mqtt, "guard \(on ? "on" : "off")")
        case .guardAck: return controlled(.guardAck, command, mqtt, "guard alarm acknowledged")
        case .trip(let verb):
            let request: ControlRequest =
                switch verb {
                case .start: .start
                case .stop: .stop
                case .reset: .reset
                }
            return controlled(request, command, mqtt, "trip \(verb.rawValue)")
        case .reload: return controlled(.reload, command, mqtt, "fences reloaded")
        case .anchor(.status):
            // Read-only, so not `command(_:)`'s: the watch as `gpstrackctl --json anchor` has it.
            let reply = AnchorReply(anchor: Reports.anchor(session))
            return answered(.success("anchor status"), command, mqtt, reply: reply)
        case .anchor(let a): return controlled(.anchor(a), command, mqtt, "anchor \(a.verb)")
        case .setWaypoints(let list): return pushWaypoints(list, command, mqtt)
        case .setFences(let set): return pushFences(set, command, mqtt)
        }
    }

    /// `setWaypoints`: the pushed set replaced whole, kept in the state directory first, merged
    /// with the file's fences and applied as a reload is (fences kept carry their state over).
    /// A clash with a file id, or a state file that cannot be written, leaves all as it was.
    private func pushWaypoints(
        _ list: [MQTTCommand.Waypoint], _ command: MQTTCommand, _ mqtt: any CommandChannel
    ) -> Result<String, ControlError> {
        let dir = configuration.stateDirectory
        return pushed(
            "waypoints", count: list.count, command, mqtt,
            index: { () throws -> FenceIndex? in
                try PushedWaypoints.replacing(
                    waypoints: list, in: session.geofences?.index.fences ?? [], stateDirectory: dir)
            },
            save: { PushedWaypoints.save(list, stateDirectory: dir) })
    }

    /// A command the control socket also knows, run by its handler (the same checks and events);
    /// answered with the handler's reply.
    private func controlled(
        _ request: ControlRequest, _ command: MQTTCommand, _ mqtt: any CommandChannel,
        _ did: String
    ) -> Result<String, ControlError> {
        switch self.command(request) ?? .failure(ControlError("not a tracker command")) {
        case .failure(let error): return answered(.failure(error), command, mqtt)
        case .success(let reply): return answered(.success(did), command, mqtt, reply: reply)
        }
    }

    /// Answers on `<base>/cmd/result`: `{"_type":"cmdresult","action":…,"result":"done"|"failed",…}`.
    func answered(
        _ outcome: Result<String, ControlError>, _ command: MQTTCommand, _ mqtt: any CommandChannel,
        reply: (any Encodable)? = nil
    ) -> Result<String, ControlError> {
        // The command echoed, but for a pushed set (up to 4 MiB): its count is in `reply`.
        let result = BrokerMessage.CommandResult(
            action: command.action, cmd: command.isPushedSet ? nil : command, outcome: outcome, reply: reply,
            tst: Int(time(nil)))
        mqtt.enqueue(
            kind: .cmdresult, topic: mqtt.baseTopic + "/cmd/result", payload: ReplyEncoder.encode(result), qos: 1)
        return outcome
    }

    /// A refused command: logged (`mqtt_command_refused`, warning) and answered with
    /// `result: refused`, each within the limits.
    func refuse(_ refusal: MQTTCommand.Refusal, _ mqtt: any CommandChannel) {
        let now = clock()
        mqtt.commandLimits.lastError = "refused: \(refusal.reason)"
        let limit = mqtt.commandLimits.entry((refusal.action ?? "") + "\u{0}" + refusal.reason, now: now)
        if limit.log {
            emit(
                LogEntry(
                    event: .mqttCommandRefused, priority: .warning,
                    message: "Command \(refusal.action ?? "") from \(mqtt.commandSource) refused: \(refusal.reason)",
                    fields: commandFields(mqtt, action: refusal.action, held: limit.held) + [(.reason, refusal.reason)])
            )
        }
        guard mqtt.commandLimits.answer(now: now) else { return }
        let refused = BrokerMessage.Refused(action: refusal.action, reason: refusal.reason, tst: Int(time(nil)))
        mqtt.enqueue(
            kind: .cmdresult, topic: mqtt.baseTopic + "/cmd/result", payload: ReplyEncoder.encode(refused), qos: 1)
    }

    /// The journal fields every command entry carries; `held` refusals not logged before it.
    private func commandFields(_ mqtt: any CommandChannel, action: String?, held: Int = 0) -> [(JournalField, String)] {
        var fields: [(JournalField, String)] = [(.source, mqtt.commandSource)]
        if let action { fields.append((.action, action)) }
        if held > 0 { fields.append((.suppressed, String(held))) }
        return fields
    }

    /// The `status` message: the control socket's status reply with the fences as a count
    /// (`fences_loaded`), the command channel's last error, under `_type: status`. The reply
    /// holds no secret (the broker's address and topic, never the password or the key).
    func statusMessage(_ mqtt: any CommandChannel, tst: Int) -> String {
        var reply = statusReply()
        let fences = reply.fences.count
        reply.fences = []
        return ReplyEncoder.encode(
            BrokerMessage.Status(
                tst: tst, fencesLoaded: fences, lastError: mqtt.commandLimits.lastError, reply: reply))
    }
}

extension Result where Failure == ControlError {
    var failureMessage: String? {
        if case .failure(let e) = self { return e.message }
        return nil
    }
}

extension TrackerService {
    /// Commands from a channel, run in order.
    func commands(_ inbound: [InboundCommand], from channel: any CommandChannel) {
        for c in inbound { command(c, from: channel) }
    }

    /// `reportLocation`: the last accepted fix as a `location` with `t: "r"` on MQTT and on each
    /// uplink that sends locations of OwnTracks' kind; what was done, in words.
    func reportLocationEverywhere(_ fix: Fix, time t: Double) -> String {
        var on: [String] = []
        if let mqtt, let ownTracks {
            mqtt.enqueue(
                kind: .location, topic: mqtt.baseTopic,
                payload: ownTracks.locationMessage(fix, time: t, inside: fenceFacts().inside, trigger: "r"), qos: 1)
            on.append(UplinkName.mqtt.rawValue)
        }
        for case let uplink as any LocationReporter in sinks {
            uplink.reportLocation(fix, time: t, inside: fenceFacts().inside)
            on.append(uplink.name)
        }
        return on.isEmpty ? "no uplink sends locations" : "location published on \(on.joined(separator: ", "))"
    }
}
