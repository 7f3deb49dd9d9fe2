import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The live daemon: wires the journal, the tracker actor, the gpsd source, signals and the
/// watchdog; runs until SIGTERM or SIGINT; stops in reverse start order.
public enum Daemon {
    public static let version = ControlRequest.version

    /// Runs the daemon with parsed options. Call `SignalStream.blockHandledSignals()` first.
    /// Start order: journal, network check, store, tracker, MQTT, control socket, gpsd source,
    /// pedometer, watchdog, metrics; READY. Each part joins the service group as it starts, and
    /// the group stops them in reverse on every way out.
    public static func run(_ options: DaemonOptions) async -> ExitCode {
        // Signals first, before anything shows the daemon running: a SIGTERM sent during the
        // start waits in the stream and stops it once started.
        let signals = await SignalStream.make()
        let config = options.configuration
        let journal = Journal(target: options.logTarget)
        let group = ServiceGroup(configuration: .daemon, journal: journal)
        // Remote gpsd and broker: said once when this machine forbids reaching them.
        let access = NetworkAccess(journal: journal)
        access.start(
            [NetworkAccess.Target(role: "gpsd", host: config.gpsdHost, port: config.gpsdPort)]
                + (config.mqtt.host.map {
                    [NetworkAccess.Target(role: "MQTT broker", host: $0, port: config.mqtt.port)]
                } ?? []))
        group.add("the network check") { await access.stop() }
        func failed(_ code: ExitCode, _ message: String) async -> ExitCode {
            journal.log(LogEntry(event: .failed, priority: .err, message: "Cannot start: \(message)"))
            return await group.stop(code)
        }

        // The state database, opened once: the store, the step log and every outbox share it.
        let state = StateDatabase(path: config.stateDirectory + "/gpstrackd.db")
        let store = Store(file: state, journal: journal)
        var mqtt: MQTTPublisher?
        if config.mqtt.host != nil {
            do {
                mqtt = try MQTTPublisher(
                    config: config.mqtt, file: state, journal: journal,
                    configFile: options.configPath ?? "configuration", origins: config.origins)
            } catch { return await failed(.config, "\(error)") }
        }
        // Home Assistant's discovery: a second connection to the broker, its own will.
        var ha: HADiscovery?
        if config.ha.enabled {
            do {
                ha = try HADiscovery.make(config, file: state, journal: journal, configPath: options.configPath)
            } catch {
                return await failed(.config, "\(error)")
            }
        }
        // The waypoints pushed from the broker, kept in the state directory, join the file's; a
        // set that no longer fits (the file took one of its ids) is left out, not a failed start.
        var fences = options.fences
        do {
            fences = try PushedWaypoints.merged(
                options.fences, stateDirectory: config.stateDirectory,
                file: config.fencesPath ?? PushedWaypoints.path(config.stateDirectory))
        } catch {
            journal.log(
                LogEntry(event: .fencesReloadFailed, priority: .err, message: "Pushed waypoints left out: \(error)"))
        }
        // The outlets: the HTTP uplinks, each a sink with its own sender thread, stopped after
        // the tracker's last commit, before MQTT.
        let outlets: Outlets
        do {
            outlets = try Outlets.make(
                config, store: store, file: state, journal: journal, configFile: options.configPath)
        } catch {
            return await failed(.config, "\(error)")
        }
        // What stays here of the outlets; their sinks go to the tracker.
        let (senders, commandChannels, stopOutlets) = (outlets.senders, outlets.commandChannels, outlets.stopAction)
        let service: TrackerService
        do {
            service = try TrackerService(
                configuration: config, fences: fences, journal: journal, store: store, mqtt: mqtt,
                outlets: outlets.sinks + (ha.map { [$0.sink(config, ownTracks: mqtt, fences: fences?.fences)] } ?? []))
        } catch {
            await stopOutlets()
            return await failed(.software, "\(error)")
        }
        // The store's last word comes after MQTT stopped: what could not be written, named.
        group.add("the store") { await service.reportStorageAtStop() }
        if let mqtt {
            mqtt.start()
            group.add(mqtt)
        }
        if let ha {
            await service.linkHomeAssistant()
            ha.start()
            group.add(ha.publisher)
            // The state's pace and the fix's age while no fix comes, on the tracker's thread.
            let haClock = Task(executorPreference: service.taskExecutor) {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    ha.tick()
                }
            }
            group.add("Home Assistant's clock") { haClock.cancel() }
        }
        await service.publishWaypoints()
        // Each channel's commands through one inlet, so that they run in the order they came.
        let mqttInlet = CommandInlet { for command in $0 { await service.mqttCommand(command) } }
        mqtt?.setCommandHandler { command in mqttInlet.take([command]) }
        for channel in commandChannels {
            let inlet = CommandInlet { await service.commands($0, from: channel) }
            channel.setHandler { payloads in inlet.take(payloads) }
        }
        // Each uplink's sender a service: stopped after the tracker's last commit, in reverse.
        for sender in senders { group.add(sender) }
        group.add("the tracker (committing its state)") { await service.finish() }
        // The anchor watch: its stored state, and its clock while no fix comes.
        await service.restoreAnchor()
        if config.inputs.any { await service.restoreInputs() }
        let anchorClock = Task(executorPreference: service.taskExecutor) { await service.runAnchorClock() }
        group.add("the anchor watch's clock") { anchorClock.cancel() }

        // Every part must make progress within the watchdog's interval (see Watchdog).
        let watchdogInterval = Notifier.watchdogInterval()
        Liveness.shared.setLimit(watchdogInterval ?? 30)
        // Made before the control socket, whose `status` reads its stats; started after it.
        let source: GPSDSource
        do {
            source = try GPSDSource(host: config.gpsdHost, port: config.gpsdPort, noDataTimeout: config.noDataTimeoutS)
        } catch {
            return await failed(.software, "\(error)")
        }
        let server: ControlServer
        do { server = try ControlServer(path: config.socketPath, config: config, journal: journal) } catch {
            journal.log(
                LogEntry(
                    event: .failed, priority: .err, message: "Cannot start: \(config.origin(of: "socket"))\(error)"))
            return await group.stop(.cantCreate)
        }
        await service.setWatchSink { line in server.broadcast(line) }
        let requests = server.start()
        let handlers = ControlHandlers(tracker: service, gpsd: source, mqtt: mqtt, tripMode: config.tracker.tripMode)
        let control = Task {
            await withDiscardingTaskGroup { streams in
                for await incoming in requests {
                    let (reply, watch) = await handlers.handle(incoming.request)
                    guard let streamed = reply as? any StreamedReply else {
                        server.reply(client: incoming.client, line: ReplyEncoder.encode(reply), watch: watch)
                        continue
                    }
                    // Written as its client reads, beside the other clients' requests; it ends
                    // when the server stops (a part then finds no client).
                    streams.addTask {
                        await streamed.write { await server.replyPart(client: incoming.client, $0) }
                        server.endReply(client: incoming.client)
                    }
                }
            }
        }
        group.add("the control socket") {
            await server.stop()
            await control.value
        }

        let events = source.start()
        // Resumed on the tracker's own thread: one hand-off per batch from the reader.
        let pump = Task(executorPreference: service.taskExecutor) {
            await service.follow(events, of: source) { group.stopping }
        }
        group.add("the gpsd source") {
            await source.stop()
            if let entry = TrackerService.skippedAtStop(await pump.value) { journal.log(entry) }
        }

        // The pedometer's source starts after gpsd's and stops before it.
        if config.pedometer == .auto {
            let pedometer: IIOSource
            do { pedometer = try IIOSource(root: config.iioRoot, devRoot: config.iioDevRoot) } catch {
                return await failed(.software, "\(error)")
            }
            let stepEvents = pedometer.start()
            let stepPump = Task { for await event in stepEvents { await service.handleSteps(event) } }
            group.add("the pedometer") {
                await pedometer.stop()
                await stepPump.value
            }
        }
        // The inputs' source likewise: after gpsd's, stopped before it.
        if config.inputs.any {
            let inputs: InputSource
            do { inputs = try InputSource(config: config.inputs) } catch { return await failed(.software, "\(error)") }
            let inputEvents = inputs.start()
            let inputPump = Task { for await event in inputEvents { await service.handleInput(event) } }
            group.add("the inputs") {
                await inputs.stop()
                await inputPump.value
            }
        }
        let watchdog = Task { await Watchdog.run(service: service, journal: journal, interval: watchdogInterval) }
        group.add("the watchdog") { watchdog.cancel() }
        if let path = config.metricsFile {
            let file = MetricsFile(path: path, intervalS: config.metricsIntervalS, journal: journal)
            let metrics = Task(executorPreference: service.taskExecutor) {
                await file.run { await service.statusReply() }
            }
            group.add("the metrics file") { metrics.cancel() }
        }

        journal.log(
            LogEntry(
                event: .started, priority: .info,
                message: "gpstrackd \(version) started: gpsd \(config.gpsdHost):\(config.gpsdPort), "
                    + "\(options.fences?.fences.count ?? 0) fences, control socket \(config.socketPath)",
                fields: [
                    (.gpsd, "\(config.gpsdHost):\(config.gpsdPort)"),
                    (.fences, String(options.fences?.fences.count ?? 0)),
                ]))
        Notifier.ready()
        Notifier.status("waiting for gpsd at \(config.gpsdHost):\(config.gpsdPort)")
        for await signal in signals {
            if signal == SIGHUP {
                await service.reloadFences()
                continue
            }
            journal.log(LogEntry(event: .stopping, priority: .info, message: "Stopping on signal \(signal)"))
            break
        }
        Notifier.stopping()
        return await group.stop()
    }
}
