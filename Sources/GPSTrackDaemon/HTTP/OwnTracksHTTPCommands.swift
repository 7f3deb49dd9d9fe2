import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The commands in the OwnTracks HTTP server's replies: the JSON array it answers a POST with
/// holds `cmd` objects (Home Assistant's, the Recorder's). Each runs through the broker's
/// parser, allow list and rate limits (`mqtt_commands`, `mqtt_command_allow`), journaled with
/// `GPSTRACK_SOURCE=owntracks_http`; its answers are POSTed to the server on the uplink's
/// outbox. With `mqtt_secret_file` a command must come encrypted, as on the broker.
final class OwnTracksHTTPCommands: CommandChannel {
    let config: MQTTConfig
    let baseTopic = ""
    let commandLimits = CommandLimiter()
    let commandSource = "owntracks_http"
    let ignoredEvent = EventName.owntracksHttpCommandIgnored
    private let sender: UplinkSender
    private let journal: Journal
    private let crypto: OwnTracksCrypto?
    private struct State {
        var handler: (@Sendable ([InboundCommand]) -> Void)?
        var refusalsLogged: Set<String> = []
    }
    private let state = Mutex(State())

    init(config: MQTTConfig, sender: UplinkSender, journal: Journal, crypto: OwnTracksCrypto?) {
        self.config = config
        self.sender = sender
        self.journal = journal
        self.crypto = crypto
    }

    /// Where the commands of one reply go, in their order (the tracker's `commands`).
    func setHandler(_ handler: @escaping @Sendable ([InboundCommand]) -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// An answer: into the uplink's outbox, POSTed as the messages are (the topic is MQTT's).
    func enqueue(kind: OutboxKind, topic: String, payload: String, qos: Int32) {
        sender.outbox.store(kind, payload: payload)
        sender.poke()
    }

    /// The server's reply, on the sender's thread: its commands handed on, opened first with a
    /// secret; other members (friends' locations, cards) are not ours to read.
    func read(_ body: [UInt8]) {
        guard !body.isEmpty, let json = try? JSONValue.parse(body), case .array(let items) = json else { return }
        var commands: [InboundCommand] = []
        var actions: [String] = []
        for item in items {
            var command = item
            var nonce: [UInt8]?
            switch item["_type"]?.string {
            case "cmd" where crypto != nil:
                refused("not encrypted, and mqtt_secret_file is set", action: item["action"]?.string)
                continue
            case "encrypted":
                guard let crypto else { continue }
                switch crypto.openWithNonce(Array(ReplyEncoder.encode(item).utf8)) {
                case .success(let (plain, sealedWith)):
                    nonce = sealedWith
                    guard let opened = try? JSONValue.parse(plain), opened["_type"]?.string == "cmd" else {
                        continue
                    }
                    state.withLock { $0.refusalsLogged = [] }
                    command = opened
                case .failure(.wrongKey):
                    refused("it does not open with our secret (another key, or changed on the way)", action: nil)
                    continue
                case .failure(let other):
                    refused("an encrypted message whose \(other)", action: nil)
                    continue
                }
            case "cmd": break
            default: continue
            }
            commands.append(InboundCommand(payload: Array(ReplyEncoder.encode(command).utf8), nonce: nonce))
            actions.append(MQTTCommand.printable(command["action"]?.string ?? "?"))
        }
        guard !commands.isEmpty else { return }
        guard config.commands else {
            let limit = commandLimits.entry("ignored", now: MonotonicClock.now())
            guard limit.log else { return }
            var fields: [(JournalField, String)] = [
                (.uplink, "owntracks_http"), (.source, commandSource), (.commands, actions.joined(separator: ",")),
            ]
            if limit.held > 0 { fields.append((.suppressed, String(limit.held))) }
            journal.log(
                LogEntry(
                    event: ignoredEvent, priority: .info,
                    message: "owntracks_http: the server sent \(commands.count) command(s) "
                        + "(\(actions.joined(separator: ", "))): not run, mqtt_commands = off",
                    fields: fields))
            return
        }
        state.withLock { $0.handler }?(commands)
    }

    /// A command that did not open: logged once a kind until one opens (as on the broker).
    private func refused(_ why: String, action: String?) {
        let first = state.withLock { $0.refusalsLogged.insert(why).inserted }
        guard first else { return }
        var fields: [(JournalField, String)] = [(.source, commandSource), (.reason, why)]
        if let action { fields.append((.action, MQTTCommand.printable(action))) }
        journal.log(
            LogEntry(
                event: .mqttCommandRefused, priority: .warning,
                message: "Command from owntracks_http refused: \(why)", fields: fields))
    }
}
