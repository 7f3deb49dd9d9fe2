// libFuzzer harness: the broker's commands decrypted and run, not just parsed. Each input is
// taken three ways through the tracker's command path (TrackerService.command, every action
// allowed): as a plaintext command, sealed under the secret (opened, judged for replay, run),
// and as a message that claims to be sealed (its bytes as the box). Properties: no crash or
// hang; a sealed command sent twice never runs twice (the second is refused as a replay, or both
// are refused before the first fix); every command gets at most one answer.
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Synchronization

@testable import GPSTrackDaemon

#if canImport(Glibc)
import Glibc
#endif

/// A journal that keeps nothing (the fuzzer's output stays readable).
struct Quiet: JournalBackend { func send(_ entry: LogEntry) {} }

/// The channel: counts the answers (each a `cmdresult` or a report) per command.
final class Channel: CommandChannel {
    let config: MQTTConfig
    let baseTopic = "fuzz/box"
    let commandLimits = CommandLimiter()
    let commandSource = "fuzz"
    let ignoredEvent = EventName.mqttCommandIgnored
    let answers = Atomic<Int>(0)
    init(config: MQTTConfig) { self.config = config }
    func enqueue(kind: OutboxKind, topic: String, payload: String, qos: Int32) {
        if kind == .cmdresult { answers.add(1, ordering: .relaxed) }
    }
}

nonisolated(unsafe) var rig: (TrackerService, Channel, OwnTracksCrypto)?

func setUp() -> (TrackerService, Channel, OwnTracksCrypto) {
    if let rig { return rig }
    var config = Configuration()
    config.mqtt.commands = true
    config.mqtt.commandAllow = MQTTConfig.commandActions
    config.stateDirectory = (getenv("GPSTRACK_FUZZ_DIR").map { String(cString: $0) } ?? "/tmp") + "/gpstrackd-fuzz-\(getpid())"
    let service = try! TrackerService(configuration: config, fences: nil, journal: Journal(backend: Quiet()))
    let made = (service, Channel(config: config.mqtt), try! OwnTracksCrypto(secret: Array("fuzzing secret".utf8)))
    rig = made
    return made
}

/// Runs commands on the tracker's actor and waits for them (the fuzzer's thread is no pool
/// thread); how many nonces they added to those remembered.
func run(_ service: TrackerService, _ commands: [InboundCommand], _ channel: Channel) -> Int {
    let added = Atomic<Int>(-1)
    Task {
        let before = await service.seenNonceCount
        await service.commands(commands, from: channel)
        added.store(await service.seenNonceCount - before, ordering: .releasing)
    }
    while added.load(ordering: .acquiring) < 0 { usleep(50) }
    return added.load(ordering: .acquiring)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let (service, channel, crypto) = setUp()
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var inbound = [InboundCommand(payload: bytes)]
    // Sealed: opened as the publisher opens it, then twice the same (a replay).
    let sealed = Array(crypto.seal(bytes).utf8)
    if case .success(let (plain, nonce)) = crypto.openWithNonce(sealed) {
        precondition(plain == bytes, "a sealed command does not open to itself")
        inbound += [InboundCommand(payload: plain, nonce: nonce), InboundCommand(payload: plain, nonce: nonce)]
    } else {
        fatalError("our own sealed message does not open")
    }
    // The input as a box: decryption of hostile bytes.
    let claimed = Array(#"{"_type":"encrypted","data":"\#(Base64.encode(bytes))"}"#.utf8)
    if case .success(let (plain, nonce)) = crypto.openWithNonce(claimed) {
        inbound.append(InboundCommand(payload: plain, nonce: nonce))
    }
    let before = channel.answers.load(ordering: .relaxed)
    let added = run(service, inbound, channel)
    let answered = channel.answers.load(ordering: .relaxed) - before
    precondition(answered <= inbound.count, "\(answered) answers to \(inbound.count) commands")
    // The pruning may drop old nonces (a negative count); the sealed pair adds one at most,
    // the hostile box one more.
    precondition(added <= 2, "a replayed nonce was let in twice")
    return 0
}
