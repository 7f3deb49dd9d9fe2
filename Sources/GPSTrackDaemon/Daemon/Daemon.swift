#if canImport(Glibc)
import Glibc
#endif
import GPSTrackCore
import Synchronization

/// The live daemon: wires the journal, the tracker actor, the gpsd source, signals and the
/// watchdog; runs until SIGTERM or SIGINT; stops in reverse start order.
public enum Daemon {
    public static let version = ControlRequest.version

    /// Runs the daemon with parsed options. Call `SignalStream.blockHandledSignals()` first.
    public static func run(_ options: DaemonOptions) async -> ExitCode {
        let config = options.configuration
        // Start order: journal, store, MQTT, tracker, control socket, gpsd source, signals, watchdog; READY.
        let journal = Journal(target: options.logTarget)
        // Remote gpsd and broker: said once when this machine forbids reaching them.
        let access = NetworkAccess(journal: journal)
        access.start([NetworkAccess.Target(role: "gpsd", host: config.gpsdHost, port: config.gpsdPort)]
            + (config.mqtt.host.map { [NetworkAccess.Target(role: "MQTT broker", host: $0, port: config.mqtt.port)] } ?? []))
        // Every service started is stopped, in reverse order, on every way out (the early
        // returns included), after the graceful stop's own steps. The stops await their
        // threads (a defer could not), so each service wraps the rest of the run.
        let code = await run(options, journal: journal)
        await access.stop()
        return code
    }

    /// The run from the store on, with MQTT stopped on every way out.
    private static func run(_ options: DaemonOptions, journal: Journal) async -> ExitCode {
        let config = options.configuration
        // A second SIGTERM or SIGINT ends the stop at once: what is committed is on disk.
        SignalStream.onSecondStop {
            journal.log(LogEntry(event: "stopping_now", priority: .notice, message: "Second stop signal: exiting at once"))
            _exit(ExitCode.ok.rawValue)
        }
        let store = Store(directory: config.stateDirectory, journal: journal)
        var mqtt: MQTTPublisher?
        if config.mqtt.host != nil {
            do {
                mqtt = try MQTTPublisher(config: config.mqtt, databasePath: store.path, journal: journal,
                                         configFile: options.configPath ?? "configuration", origins: config.origins)
            } catch {
                journal.log(LogEntry(event: "failed", priority: .err, message: "Cannot start: \(error)"))
                return .config
            }
            mqtt?.start()
        }
        let code = await run(options, journal: journal, store: store, mqtt: mqtt)
        await mqtt?.stop()   // done already after a graceful stop: then it returns at once
        return code
    }

    /// The run from the tracker on: starts the rest, serves until a stop signal, stops in reverse order.
    private static func run(_ options: DaemonOptions, journal: Journal, store: sending Store, mqtt: MQTTPublisher?) async -> ExitCode {
        let config = options.configuration
        let service: TrackerService
        // The waypoints pushed from the broker, kept in the state directory, join the file's; a
        // set that no longer fits (the file took one of its ids) is left out, not a failed start.
        var fences = options.fences
        do { fences = try PushedWaypoints.merged(options.fences, stateDirectory: config.stateDirectory,
                                                 file: config.fencesPath ?? PushedWaypoints.path(config.stateDirectory)) } catch {
            journal.log(LogEntry(event: "fences_reload_failed", priority: .err, message: "Pushed waypoints left out: \(error)"))
        }
        // The HTTP uplinks (issue 25), each a sink with its own sender thread.
        let uplinks: [any UplinkSink]
        do { uplinks = try Uplinks.make(config, databasePath: store.path, journal: journal, configFile: options.configPath) } catch {
            journal.log(LogEntry(event: "failed", priority: .err, message: "Cannot start: \(error)"))
            return .config
        }
        let senders = uplinks.map(\.sender)
        do { service = try TrackerService(configuration: config, fences: fences, journal: journal, store: store, mqtt: mqtt,
                                          outlets: uplinks) } catch {
            journal.log(LogEntry(event: "failed", priority: .err, message: "Cannot start: \(error)"))
            return .software
        }
        await service.publishWaypoints()
        mqtt?.setCommandHandler { payload in Task { await service.mqttCommand(payload) } }
        // Every part must make progress within the watchdog's interval (see Watchdog).
        let watchdogInterval = Notifier.watchdogInterval()
        Liveness.shared.setLimit(watchdogInterval ?? 30)
        let source: GPSDSource
        do { source = try GPSDSource(host: config.gpsdHost, port: config.gpsdPort, noDataTimeout: config.noDataTimeoutS) } catch {
            journal.log(LogEntry(event: "failed", priority: .err, message: "Cannot start: \(error)"))
            return .software
        }
        // The pedometer's source starts after gpsd's and stops before it.
        var pedometer: IIOSource?
        if config.pedometer == .auto {
            do { pedometer = try IIOSource(root: config.iioRoot, devRoot: config.iioDevRoot) } catch {
                journal.log(LogEntry(event: "failed", priority: .err, message: "Cannot start: \(error)"))
                return .software
            }
        }
        let server: ControlServer
        do { server = try ControlServer(path: config.socketPath, config: config, journal: journal) } catch {
            journal.log(LogEntry(event: "failed", priority: .err, message: "Cannot start: \(config.origin(of: "socket"))\(error)"))
            return .cantCreate
        }
        await service.setWatchSink { line in server.broadcast(line) }
        await service.setGPSDDropped { (source.droppedFixes, source.droppedMalformed) }
        let requests = server.start()
        let control = Task {
            for await incoming in requests {
                let (reply, watch) = await service.control(incoming.request)
                server.reply(client: incoming.client, line: ReplyEncoder.encode(reply), watch: watch)
            }
        }
        let events = source.start()
        let signals = SignalStream.make()
        journal.log(LogEntry(event: "started", priority: .info,
                             message: "gpstrackd \(version) started: gpsd \(config.gpsdHost):\(config.gpsdPort), "
                                + "\(options.fences?.fences.count ?? 0) fences, control socket \(config.socketPath)",
                             fields: [("GPSTRACK_GPSD", "\(config.gpsdHost):\(config.gpsdPort)"),
                                      ("GPSTRACK_FENCES", String(options.fences?.fences.count ?? 0))]))

        let stage = StopStage()
        // Resumed on the tracker's own thread: one hand-off per batch from the reader.
        let pump = Task(executorPreference: service.taskExecutor) { await service.follow(events, of: source) { stage.stopping } }
        let stepEvents = pedometer?.start()
        let stepPump = Task {
            guard let stepEvents else { return }
            for await event in stepEvents { await service.handleSteps(event) }
        }
        let watchdog = Task { await Watchdog.run(service: service, journal: journal, interval: watchdogInterval) }
        let metrics = config.metricsFile.map { path in
            let file = MetricsFile(path: path, intervalS: config.metricsIntervalS, journal: journal)
            return Task(executorPreference: service.taskExecutor) { await file.run { await service.statusReply() } }
        }
        Notifier.ready()
        Notifier.status("waiting for gpsd at \(config.gpsdHost):\(config.gpsdPort)")

        for await signal in signals {
            if signal == SIGHUP {
                await service.reloadFences()
                continue
            }
            journal.log(LogEntry(event: "stopping", priority: .info, message: "Stopping on signal \(signal)"))
            break
        }

        // Stop in reverse order: watchdog, source (its stream then ends), control socket,
        // tracker; then (the defers) MQTT and the network check. All within the deadline.
        stage.beginStop()
        // Under systemd only: outside it no SIGKILL comes, and a heavy stop may take its time.
        let deadline = ShutdownDeadline.underSystemd ? ShutdownDeadline(journal: journal) { stage.name } : nil
        Notifier.stopping()
        watchdog.cancel()
        metrics?.cancel()
        stage.set("stopping the pedometer")
        await pedometer?.stop()
        await stepPump.value
        stage.set("stopping the gpsd source")
        await source.stop()
        let skipped = await pump.value
        if skipped > 0 {
            journal.log(LogEntry(event: "stop_skipped_fixes", priority: .info,
                                 message: "\(skipped) fixes still waiting at the stop were not processed",
                                 fields: [("GPSTRACK_SKIPPED", String(skipped))]))
        }
        stage.set("stopping the control socket")
        await server.stop()
        await control.value
        stage.set("committing the tracker's state")
        await service.finish()
        stage.set("stopping the uplinks")
        for sender in senders { await sender.stop() }
        stage.set("stopping MQTT")
        await mqtt?.stop()
        await service.reportStorageAtStop()
        deadline?.disarm()
        return .ok
    }
}

/// What the graceful stop is doing, for the deadline's journal entry.
final class StopStage: Sendable {
    private let current = Synchronization.Mutex("starting to stop")
    private let begun = Atomic<Bool>(false)
    /// Whether the graceful stop has begun.
    var stopping: Bool { begun.load(ordering: .relaxed) }
    func beginStop() { begun.store(true, ordering: .relaxed) }
    var name: String { current.withLock { $0 } }
    func set(_ name: String) { current.withLock { $0 = name } }
}
