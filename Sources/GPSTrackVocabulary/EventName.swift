/// Every `GPSTRACK_EVENT` the daemon journals: the tracking events (sequenced, stored, in
/// `watch`, `events` and `replay`) and the notices. One vocabulary: code matches on these
/// cases, never on the strings; the raw value is the wire's and the journal's name.
public enum EventName: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// The name itself, so that text built around an event says `trip_end`, never `tripEnd`.
    public var description: String { rawValue }

    case anchorAck = "anchor_ack"
    case anchorAlarm = "anchor_alarm"
    case anchorDropped = "anchor_dropped"
    case anchorNoPosition = "anchor_no_position"
    case anchorRaised = "anchor_raised"
    case anchorWarning = "anchor_warning"
    case clockInLine = "clock_in_line"
    case clockOffset = "clock_offset"
    case deviceRemoved = "device_removed"
    case discontinuity
    case dwell
    case enter
    case eventsUnreadable = "events_unreadable"
    case exit
    case failed
    case failover
    case fencesDetermined = "fences_determined"
    case fencesReloadFailed = "fences_reload_failed"
    case fencesReloaded = "fences_reloaded"
    case fixAcquired = "fix_acquired"
    case fixLost = "fix_lost"
    case gpsdConnected = "gpsd_connected"
    case gpsdLost = "gpsd_lost"
    case guardAck = "guard_ack"
    case guardArmRefused = "guard_arm_refused"
    case guardArmed = "guard_armed"
    case guardBreach = "guard_breach"
    case guardNoPosition = "guard_no_position"
    case guardSet = "guard_set"
    /// Home Assistant's part: a message on its topics that was not HA's nor gpstrackd's own.
    case haBadMessage = "ha_bad_message"
    case malformed
    case metricsFailed = "metrics_failed"
    case metricsWritten = "metrics_written"
    case mqttCommand = "mqtt_command"
    case mqttCommandIgnored = "mqtt_command_ignored"
    case mqttCommandRefused = "mqtt_command_refused"
    case mqttConnected = "mqtt_connected"
    case mqttError = "mqtt_error"
    case mqttLost = "mqtt_lost"
    case mqttOutboxDegraded = "mqtt_outbox_degraded"
    case mqttOutboxRecovered = "mqtt_outbox_recovered"
    case mqttRefused = "mqtt_refused"
    case mqttSecretShort = "mqtt_secret_short"
    case mqttTlsFailed = "mqtt_tls_failed"
    case networkCheckSkipped = "network_check_skipped"
    case networkForbidden = "network_forbidden"
    case overspeedEnd = "overspeed_end"
    case overspeedStart = "overspeed_start"
    case pedometerFound = "pedometer_found"
    case pedometerGarbage = "pedometer_garbage"
    case pedometerLost = "pedometer_lost"
    case pedometerOff = "pedometer_off"
    case pedometerReset = "pedometer_reset"
    case restored
    case socketGroup = "socket_group"
    case stallOver = "stall_over"
    case stalled
    case started
    case state
    case steps
    case stopDeadline = "stop_deadline"
    case stopSkippedFixes = "stop_skipped_fixes"
    case stopping
    case stoppingNow = "stopping_now"
    case storageAtStop = "storage_at_stop"
    case damagedRow = "damaged_row"
    case storageCorrupt = "storage_corrupt"
    case storageDegraded = "storage_degraded"
    case storageRecovered = "storage_recovered"
    case storageThinning = "storage_thinning"
    case summary
    case tripEnd = "trip_end"
    case tripReset = "trip_reset"
    case tripStart = "trip_start"
    case tripStop = "trip_stop"
    case watchDropped = "watch_dropped"
    case owntracksHttpCommandIgnored = "owntracks_http_command_ignored"
    case uplinkFixTimeOff = "uplink_fix_time_off"
    case uplinkLost = "uplink_lost"
    case uplinkRecovered = "uplink_recovered"
    case uplinkRefused = "uplink_refused"
    case ignitionOn = "ignition_on"
    case ignitionOff = "ignition_off"
    case powerLost = "power_lost"
    case powerRestored = "power_restored"
    case batteryLow = "battery_low"
    case sos
    case sosAck = "sos_ack"
    case inputFailed = "input_failed"
    case inputRestored = "input_restored"
    case inputUnsteady = "input_unsteady"
    case inputReading = "input_reading"

    /// A fixed `MESSAGE_ID` per event, for `journalctl MESSAGE_ID=…`; nil where none was given.
    public var messageID: String? { Self.messageIDs[self] }

    private static let messageIDs: [EventName: String] = [
        .enter: "0a71d53a713d4db5b432af356eec29da",
        .damagedRow: "2f30decfd6784b99a94838db5d3a2b1c",
        .exit: "e441d118a442459aa9889edfd8b5d9e5",
        .dwell: "b2fc5c0fd80c48089d9f2338f27b04ae",
        .state: "599070c975f6400ba2375f79f389b1db",
        .fencesDetermined: "0b1a4aadae7b4891a5b6eb5e0e78d126",
        .tripStart: "0985a0ff028b4cae9c798f7e8dd19db6",
        .tripStop: "4c01432aa1e6453088bbb44784eff727",
        .tripEnd: "11c491396e6e4368af6aadb520edbe41",
        .guardArmed: "644753e9cbdf4373ba6bdddb4dc4bb7a",
        .guardBreach: "9c39edab10c84484bdd50ff15fa308cb",
        .overspeedStart: "badb4fc2cc0a4eb4978446e593f8441e",
        .overspeedEnd: "0acd11832eb0473a9ef3075bfd556c9b",
        .guardSet: "6969c44bb2984f229957e45602ff6f72",
        .discontinuity: "ae34569829ff466f82748c11fa6b72e0",
        .fixLost: "9c34a566bef640c9bc1f3ff06a97b83e",
        .fixAcquired: "b968e74820fc4737a5892812b624652e",
        .gpsdConnected: "2310cd7e61194257a2b78c78041a5b30",
        .gpsdLost: "892cc3959f4c421abf95d9acf28c4d8c",
        .deviceRemoved: "887aa5674a7b4858b36dbe01b5a3e342",
        .fencesReloaded: "92a53dbd50744a6ca7216640f57d458f",
        .fencesReloadFailed: "73d0691837d24b6999e86ea5cb96be8c",
        .started: "cffd1c065a404287a57ffb3f5b8102ca",
        .stopping: "1c4845a0d4fe426b97d9c3d55b228430",
        .summary: "44990c495fef432394ef48a3d7b04e93",
        .steps: "85c5c6fd12364286bda41342114b8365",
        .malformed: "9f3b41adc3a84045b9a267de3e51610e",
        .stalled: "0d5c941b7506442b85ec16fdae2a65c7",
        .stallOver: "ebdf102c2b754239ab8c9a380efaffeb",
        .clockOffset: "5b0e4f0f3c6a4d7e9a51c2d8e3f47a16",
        .clockInLine: "c7d21a9e64b84f0a8e3b5f6a1d2c9e08",
        .guardAck: "86670cd7687f4d7db5b6f388f2aa80e7",
        .anchorDropped: "2841b9b2a2504d7f9f64eca7de3070ab",
        .anchorWarning: "eb25a421572d4e8da071db870f417e67",
        .anchorAlarm: "c537f4c30fe84dddb2d4a14ca35a699c",
        .anchorNoPosition: "3dedc87b28ca435a8587405a56e61644",
        .anchorAck: "73fc3b7a7b18439eb08dc24e66f2f22c",
        .anchorRaised: "42b744c42ae4405a9bbb67c7f9000662",
        .guardNoPosition: "d4e61101af4247379f5bdc2d36ddf184",
        .guardArmRefused: "9b7d65cba5d64e328cce5e6c5c6d2aaf",
        .inputReading: "7125edaa7f8041a4b505df537a00e759",
        .ignitionOn: "c86d88b973b04c1f9b1df68a99e2bd87",
        .ignitionOff: "af7b67fbf7dc4ba8aea4578fc7b12d29",
        .powerLost: "d60d9b3517464ea5a2958055256de84f",
        .powerRestored: "41f9e565748e46a7915e9662b8155007",
        .batteryLow: "bfb582519a1047f2b70a27e812df9d8f",
        .sos: "d51e219dab864fc5b2ea7e09fe769ea1",
        .sosAck: "ce58a86dc24c48c89c93d1261377fbe6",
        .inputFailed: "22402aa6d0144a298ef7604ed6a55997",
        .inputRestored: "61190c7917b74859aec06bdaf00d8dbb",
        .inputUnsteady: "4272c3ff5bb145f5aa230394b087d532",
    ]

    /// The alarms: a guard breach, overspeed, the anchor's alarm and its lost position, the
    /// panic button, the external power lost and the battery low. An
    /// outbox keeps them before locations when it thins; ntfy sends them urgent; the webhook
    /// sends them by default.
    public static let alarms: Set<EventName> = [
        .guardBreach, .overspeedStart, .anchorAlarm, .anchorNoPosition, .sos, .powerLost, .batteryLow,
    ]
    public var isAlarm: Bool { Self.alarms.contains(self) }

    /// The tracking events a webhook may send (`webhook_events`).
    public static let webhookKinds: [EventName] = [
        .enter, .exit, .dwell, .tripStart, .tripEnd, .guardArmed, .guardArmRefused, .guardBreach, .overspeedStart,
        .overspeedEnd, .anchorDropped, .anchorWarning, .anchorAlarm, .anchorNoPosition, .anchorAck, .anchorRaised,
        .ignitionOn, .ignitionOff, .powerLost, .powerRestored, .batteryLow, .sos, .sosAck,
    ]
}
