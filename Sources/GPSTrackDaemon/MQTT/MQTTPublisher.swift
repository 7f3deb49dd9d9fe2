import CMosquitto
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Publishes OwnTracks JSON over MQTT through libmosquitto, from a durable outbox: every
/// message is first written to the `outbox` table of the state database and deleted only when
/// libmosquitto reports it published (QoS 1: acknowledged by the broker). While the broker is
/// unreachable messages wait there; libmosquitto's thread reconnects with capped exponential
/// backoff and the outbox drains in order.
public final class MQTTPublisher: Service {
    /// The stop's stage: "stopping MQTT".
    public let name = "MQTT"
    public let config: MQTTConfig
    /// The base topic (`owntracks/<user>/<device>`).
    public let baseTopic: String
    /// OwnTracks' two-letter tracker id.
    public let trackerID: String
    /// What this connection is for: OwnTracks' or Home Assistant's.
    public let role: Role
    let journal: Journal
    let password: String?
    /// OwnTracks' payload encryption, with `mqtt_secret_file`.
    let crypto: OwnTracksCrypto?
    /// The queue `mqtt` of the one outbox.
    let outbox: Outbox
    /// What libmosquitto's thread (its callbacks) and the tracker's both touch.
    let guarded: Mutex<State>
    let stopping = Atomic<Bool>(false)
    /// The command channel's rate limits and last error.
    let commandLimits = CommandLimiter()
    /// Longest command payload taken from `<base>/cmd`: the parser's bound, encrypted (base64).
    static let maxCommandBytes = (MQTTCommand.maxBytes + 40) / 3 * 4 + 64

    /// Reads the password file; a missing or unreadable one is a configuration error.
    /// `configFile` names the configuration file, `origins` where each key was set
    /// (`FILE:LINE`, see `Configuration.origins`), so that an error names its line.
    public convenience init(
        config: MQTTConfig, databasePath: String, journal: Journal, configFile: String,
        origins: [String: String] = [:]
    ) throws(ConfigError) {
        try self.init(
            config: config, file: StateDatabase(path: databasePath), journal: journal, configFile: configFile,
            origins: origins)
    }

    /// The publisher on the daemon's one state database (its `outbox` table).
    /// `role` `.homeAssistant` makes the second connection, to the same broker with the same
    /// login and TLS, whose last will is HA's availability (the OwnTracks one keeps its own).
    public init(
        config: MQTTConfig, file: StateDatabase, journal: Journal, configFile: String, origins: [String: String] = [:],
        role: Role = .ownTracks
    ) throws(ConfigError) {
        func place(_ key: String) -> String { origins[key] ?? configFile }
        self.config = config
        self.journal = journal
        self.role = role
        try Self.loadLibrary(place: place("mqtt_host"))
        let device = OwnTracks.hostDevice()
        switch role {
        case .ownTracks: baseTopic = config.topic ?? "owntracks/\(config.user ?? "gpstrackd")/\(device)"
        case .homeAssistant(let base): baseTopic = base
        }
        trackerID = OwnTracks.trackerID(device: device)
        var password: String?
        if let file = config.passwordFile {
            let bytes: [UInt8]
            do { bytes = try FileIO.readAll(file, maxBytes: 4096, regularOnly: true) } catch {
                throw ConfigError(
                    file: place("mqtt_password_file"), line: nil,
                    message: "mqtt_password_file \(file): cannot read: \(error)")
            }
            switch Self.password(from: bytes) {
            case .success(let p): password = p
            case .failure(let problem):
                throw ConfigError(
                    file: place("mqtt_password_file"), line: nil,
                    message: "mqtt_password_file \(file): \(problem.message)")
            }
        }
        self.password = password
        // HA reads no OwnTracks encryption: its connection goes in clear (ha_discovery_plaintext).
        crypto =
            role == .ownTracks
            ? try Self.crypto(config.secretFile, place: place("mqtt_secret_file"), warn: journal) : nil
        for (key, file) in [
            ("mqtt_ca_file", config.caFile), ("mqtt_cert_file", config.certFile), ("mqtt_key_file", config.keyFile),
        ] {
            guard let file else { continue }
            do { _ = try FileIO.readAll(file, maxBytes: 1 << 20) } catch {
                throw ConfigError(file: place(key), line: nil, message: "\(key) \(file): cannot read: \(error)")
            }
        }
        if (config.certFile == nil) != (config.keyFile == nil) {
            throw ConfigError(
                file: place(config.certFile == nil ? "mqtt_key_file" : "mqtt_cert_file"), line: nil,
                message: "mqtt_cert_file and mqtt_key_file go together")
        }
        if config.certFile != nil, config.caFile == nil {
            throw ConfigError(
                file: place("mqtt_cert_file"), line: nil,
                message: "mqtt_cert_file needs mqtt_ca_file (TLS verifies the broker)")
        }
        outbox =
            role == .ownTracks
            ? Outbox(uplink: UplinkName.mqtt.rawValue, file: file, limit: config.outboxMax)
            : Outbox(uplink: Self.haQueue, file: file, limit: Self.haOutboxMax)
        guarded = Mutex(State())
    }

    /// Loads libmosquitto (dlopen): only a daemon with MQTT configured maps it and its TLS
    /// libraries. Its absence is a configuration error naming the package.
    static func loadLibrary(place: String) throws(ConfigError) {
        var error = [CChar](repeating: 0, count: 512)
        guard gpstrack_mosquitto_load(&error, error.count) != 0 else { return }
        let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw ConfigError(
            file: place, line: nil,
            message: "mqtt_host is set but libmosquitto cannot be loaded (\(reason)): install the package libmosquitto1"
        )
    }

    /// Connects in the background; libmosquitto's own thread keeps the connection.
    public func start() {
        dl_mosquitto_lib_init()
        let baseClientID = config.clientID ?? "gpstrackd-\(baseTopic.split(separator: "/").last ?? "box")"
        // Two connections of one box need two ids: the broker drops the older of a pair.
        let clientID = role == .ownTracks ? baseClientID : baseClientID + "-ha"
        guard let m = dl_mosquitto_new(clientID, true, Unmanaged.passUnretained(self).toOpaque()) else {
            journal.log(LogEntry(event: .mqttError, priority: .err, message: "MQTT client could not be created"))
            return
        }
        // The handle crosses the lock as its address: a pointer is not Sendable.
        let address = Int(bitPattern: m)
        guarded.withLock { $0.mosq = OpaquePointer(bitPattern: address) }
        dl_mosquitto_connect_callback_set(m) { _, obj, rc in
            Unmanaged<MQTTPublisher>.fromOpaque(obj!).takeUnretainedValue().onConnect(rc)
        }
        dl_mosquitto_disconnect_callback_set(m) { _, obj, rc in
            Unmanaged<MQTTPublisher>.fromOpaque(obj!).takeUnretainedValue().onDisconnect(rc)
        }
        dl_mosquitto_publish_callback_set(m) { _, obj, mid in
            Unmanaged<MQTTPublisher>.fromOpaque(obj!).takeUnretainedValue().onPublish(mid)
        }
        // libmosquitto says why a TLS connection failed only in its log (OpenSSL's reason, e.g.
        // "tlsv13 alert certificate required"); a failed verification of the broker's
        // certificate is read there too, while the handshake's SSL object still exists.
        dl_mosquitto_log_callback_set(m) { mosq, obj, level, text in
            guard level == MOSQ_LOG_ERR, let text, let obj else { return }
            Unmanaged<MQTTPublisher>.fromOpaque(obj).takeUnretainedValue()
                .onLibraryError(
                    String(cString: text), verifyResult: dl_mosquitto_ssl_get(mosq).map { dl_SSL_get_verify_result($0) }
                )
        }
        dl_mosquitto_message_callback_set(m) { _, obj, message in
            guard let message, let obj, let topic = message.pointee.topic else { return }
            let length = Int(clamping: message.pointee.payloadlen)
            let publisher = Unmanaged<MQTTPublisher>.fromOpaque(obj).takeUnretainedValue()
            // Longer than any command: only its length is looked at (HA's part counts it).
            let bytes =
                length <= MQTTPublisher.maxCommandBytes
                ? message.pointee.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? [] : nil
            publisher.onMessage(topic: String(cString: topic), payload: bytes, length: length)
        }
        let will: [UInt8]
        switch role {
        case .ownTracks:
            let lwt = ReplyEncoder.encode(BrokerMessage.LastWill(tst: Int(time(nil))))
            will = Array((crypto?.seal(Array(lwt.utf8)) ?? lwt).utf8)
            _ = dl_mosquitto_will_set(m, baseTopic, Int32(will.count), will, 1, false)
        case .homeAssistant:
            will = Array(Self.offline.utf8)
            _ = dl_mosquitto_will_set(m, availabilityTopic, Int32(will.count), will, 1, true)
        }
        if config.user != nil || password != nil { _ = dl_mosquitto_username_pw_set(m, config.user, password) }
        _ = dl_mosquitto_threaded_set(m, true)
        // TLS asked for and not set up: no connection at all (fails closed); the network loop
        // tries the set-up again on its backoff.
        let ready = setUpTLS(m)
        if ready { _ = dl_mosquitto_connect_async(m, config.host ?? "localhost", Int32(config.port), 30) }
        let thread = NativeThread { [self] in
            if let m = OpaquePointer(bitPattern: guarded.withLock { Int(bitPattern: $0.mosq) }) {
                network(m, connectCalled: ready)
            }
        }
        guarded.withLock { $0.thread = thread }
    }

    /// Runs libmosquitto's network loop until stopped; after a failure waits (the transports'
    /// one policy, `ReconnectBackoff.transport`, in slices so that stopping is prompt) and
    /// reconnects.
    func network(_ m: OpaquePointer, connectCalled: Bool) {
        var connectCalled = connectCalled
        var stopDeadline: Double?
        while true {
            let rc = dl_mosquitto_loop(m, 1000, 1)
            if stopping.load(ordering: .acquiring) {
                // Stopping: let the DISCONNECT go out, briefly.
                let deadline = stopDeadline ?? MonotonicClock.now() + 2
                stopDeadline = deadline
                if rc != MOSQ_ERR_SUCCESS.rawValue || MonotonicClock.now() > deadline { return }
                continue
            }
            guard rc != MOSQ_ERR_SUCCESS.rawValue else { continue }
            let delay = guarded.withLock { $0.retry.take() }
            let until = MonotonicClock.now() + delay
            while MonotonicClock.now() < until {
                if stopping.load(ordering: .acquiring) { return }
                usleep(100_000)
            }
            // A failed set-up left libmosquitto without a CA: never (re)connect until one works.
            guard guarded.withLock({ $0.tlsFailure == nil }) || setUpTLS(m) else { continue }
            if connectCalled {
                _ = dl_mosquitto_reconnect_async(m)
            } else {
                _ = dl_mosquitto_connect_async(m, config.host ?? "localhost", Int32(config.port), 30)
                connectCalled = true
            }
        }
    }

    /// Disconnects and stops libmosquitto's thread; the outbox keeps what was not published.
    public func stop() async {
        // Messages that waited in memory (a full disk) get a last chance to reach the table.
        tell(outbox.flush())
        let (address, thread) = guarded.withLock { s in (Int(bitPattern: s.mosq), s.thread) }
        guard let m = OpaquePointer(bitPattern: address) else { return }
        if role != .ownTracks, guarded.withLock({ $0.connected }) {
            // A clean stop sends no will: HA hears "offline" from here, before the DISCONNECT.
            let offline = Array(Self.offline.utf8)
            _ = dl_mosquitto_publish(m, nil, availabilityTopic, Int32(offline.count), offline, 1, true)
        }
        stopping.store(true, ordering: .releasing)
        _ = dl_mosquitto_disconnect(m)
        await thread?.join()
        guarded.withLock { s in
            s.thread = nil
            s.mosq = nil
        }
        dl_mosquitto_destroy(m)
        dl_mosquitto_lib_cleanup()
    }

    /// Whether the broker is connected, how many messages wait, why the outbox table cannot be
    /// written (nil when it can), when the oldest waiting message was queued and when the broker
    /// last acknowledged one (Unix times).
    public var state:
        (
            connected: Bool, outbox: Int, outboxFailure: String?, oldest: Double?, lastSuccess: Double?,
            tlsFailure: String?
        )
    {
        let w = outbox.waiting
        return guarded.withLock { s in (s.connected, w.count, w.failure, w.oldest, s.lastSuccess, s.tlsFailure) }
    }
}
