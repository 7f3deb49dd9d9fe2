import Foundation
import GPSTrackCore
import GPSTrackDaemon
import GPSTrackJSON
import GPSTrackProtocol
import Synchronization

/// The tracking actor in-process, as the daemon wires it but with no process, socket or gpsd:
/// an in-memory journal, a store in a temporary state directory, fixes handed to `handle` as the
/// gpsd source would, and the control handlers called directly, their replies read back with
/// the protocol's own decoder (the types gpstrackctl reads).
public final class TrackerHarness: Sendable {
    public let journal = InMemoryJournal()
    public let tracker: TrackerService
    /// The control handlers, as the daemon's socket calls them (no gpsd source).
    public let handlers: ControlHandlers
    /// The MQTT publisher, when asked for: made as the daemon makes it (its outbox in the state
    /// database) but never started, so that nothing leaves the outbox.
    public let mqtt: MQTTPublisher?
    /// The temporary state directory (removed by `close`).
    public let stateDirectory: String
    /// The state database, as the daemon names it in its state directory.
    public let databasePath: String
    /// Where `watch` lines went, in order.
    public let watched = InMemoryJournal()
    /// The tracker's monotonic clock (its rate limits), in seconds: moved by the test alone.
    public let clock = ManualClock()
    /// Stops the uplinks' senders (`close`).
    private let stopOutlets: @Sendable () async -> Void

    /// A tracker with `configure` applied to the configuration (its state directory is the
    /// harness's own) and `fences`, if any; with a store unless `store` is false; with an MQTT
    /// publisher (not started) when the configuration sets `mqtt.host`; with the daemon's
    /// outlets (`Outlets.make`): each HTTP uplink the configuration sets sends through
    /// `transport` (given the uplink's name), or libcurl without one. `restarting`: the state
    /// directory of a harness that was `stop`ped, as a restarted daemon finds it.
    public init(
        fences: [Fence] = [], store: Bool = true, restarting: String? = nil,
        configure: (inout Configuration) -> Void = { _ in },
        transport: (@Sendable (UplinkName) -> any HTTPTransport)? = nil
    ) async throws {
        if let restarting {
            stateDirectory = restarting
        } else {
            var template = Array("/tmp/gpstrack-harness-XXXXXX".utf8CString)
            guard let dir = mkdtemp(&template) else { throw HarnessError("mkdtemp: errno \(errno)") }
            stateDirectory = String(cString: dir)
        }
        var config = Configuration()
        config.stateDirectory = stateDirectory
        configure(&config)
        let index = fences.isEmpty ? nil : try FenceIndex(fences: fences, file: "harness fences")
        let log = journal.journal
        let clock = self.clock
        databasePath = stateDirectory + "/gpstrackd.db"
        // One state database for the store and the outbox, as the daemon has.
        let file = StateDatabase(path: databasePath)
        let opened = store ? Store(file: file, journal: log) : nil
        mqtt =
            config.mqtt.host == nil
            ? nil
            : try MQTTPublisher(config: config.mqtt, file: file, journal: log, configFile: "harness")
        let outlets = try Outlets.make(
            config, store: opened, file: file, journal: log, configFile: "harness", transport: transport)
        stopOutlets = outlets.stopAction
        tracker = try TrackerService(
            configuration: config, fences: index, journal: log, store: opened, mqtt: mqtt, outlets: outlets.sinks,
            clock: { clock.now })
        handlers = ControlHandlers(tracker: tracker, gpsd: nil, mqtt: mqtt, tripMode: config.tracker.tripMode)
        let watched = self.watched
        await tracker.setWatchSink { line in watched.send(LogEntry(event: .started, priority: .info, message: line)) }
    }

    /// Hands the fixes to the tracker as gpsd's TPVs, in order.
    public func feed(_ fixes: [Fix]) async {
        for fix in fixes { await tracker.handle(.record(.tpv(fix))) }
    }

    /// Sends a control request and reads its reply as `T` (the reply's JSON line, decoded).
    public func request<T: Decodable>(_ request: ControlRequest, as type: T.Type) async throws -> T {
        let line = try await requestLine(request)
        return try ReplyDecoder.decode(T.self, line: line)
    }

    /// A control request's reply as its JSON line, byte for byte as the socket writes it.
    public func requestLine(_ request: ControlRequest) async throws -> String {
        let (reply, _) = await handlers.handle(request)
        guard let streamed = reply as? any StreamedReply else { return ReplyEncoder.encode(reply) }
        let line = Mutex("")
        await streamed.write { part in
            line.withLock { $0 += part }
            return true
        }
        return line.withLock { $0 }
    }

    /// The `watch` lines so far.
    public var watchLines: [String] { watched.entries.map(\.message) }

    /// Ends the feed as the daemon's stop does: the epoch held back is processed, all committed.
    public func endFeed() async { await tracker.finish() }

    /// Stops the outlets and keeps the state directory, for a harness `restarting` from it (call
    /// `endFeed` first for a clean stop; without it, a kill).
    public func stop() async { await stopOutlets() }

    /// Removes the state directory.
    public func close() async {
        await stopOutlets()
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }
}

/// A harness that could not be set up.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
