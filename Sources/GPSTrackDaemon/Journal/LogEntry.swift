/// One structured log entry: a message for people and fields for machines.
public struct LogEntry: Sendable {
    /// syslog priorities.
    public enum Priority: Int, Sendable {
        case err = 3, warning = 4, notice = 5, info = 6, debug = 7

        var name: String {
            switch self {
            case .err: "err"
            case .warning: "warning"
            case .notice: "notice"
            case .info: "info"
            case .debug: "debug"
            }
        }
    }

    /// The `GPSTRACK_EVENT` value.
    public var event: String
    public var priority: Priority
    /// `MESSAGE`, readable by a person.
    public var message: String
    /// Further `GPSTRACK_*` (or other UPPER_SNAKE) fields.
    public var fields: [(String, String)]

    public init(event: String, priority: Priority, message: String, fields: [(String, String)] = []) {
        self.event = event
        self.priority = priority
        self.message = message
        self.fields = fields
    }

    /// A fixed `MESSAGE_ID` per event type, for `journalctl MESSAGE_ID=…`.
    public static let messageIDs: [String: String] = [
        "enter": "0a71d53a713d4db5b432af356eec29da",
        "exit": "e441d118a442459aa9889edfd8b5d9e5",
        "dwell": "b2fc5c0fd80c48089d9f2338f27b04ae",
        "state": "599070c975f6400ba2375f79f389b1db",
        "fences_determined": "0b1a4aadae7b4891a5b6eb5e0e78d126",
        "trip_start": "0985a0ff028b4cae9c798f7e8dd19db6",
        "trip_stop": "4c01432aa1e6453088bbb44784eff727",
        "trip_end": "11c491396e6e4368af6aadb520edbe41",
        "guard_armed": "644753e9cbdf4373ba6bdddb4dc4bb7a",
        "guard_breach": "9c39edab10c84484bdd50ff15fa308cb",
        "overspeed_start": "badb4fc2cc0a4eb4978446e593f8441e",
        "overspeed_end": "0acd11832eb0473a9ef3075bfd556c9b",
        "guard_set": "6969c44bb2984f229957e45602ff6f72",
        "discontinuity": "ae34569829ff466f82748c11fa6b72e0",
        "fix_lost": "9c34a566bef640c9bc1f3ff06a97b83e",
        "fix_acquired": "b968e74820fc4737a5892812b624652e",
        "gpsd_connected": "2310cd7e61194257a2b78c78041a5b30",
        "gpsd_lost": "892cc3959f4c421abf95d9acf28c4d8c",
        "device_removed": "887aa5674a7b4858b36dbe01b5a3e342",
        "fences_reloaded": "92a53dbd50744a6ca7216640f57d458f",
        "fences_reload_failed": "73d0691837d24b6999e86ea5cb96be8c",
        "started": "cffd1c065a404287a57ffb3f5b8102ca",
        "stopping": "1c4845a0d4fe426b97d9c3d55b228430",
        "summary": "44990c495fef432394ef48a3d7b04e93",
        "steps": "85c5c6fd12364286bda41342114b8365",
        "malformed": "9f3b41adc3a84045b9a267de3e51610e",
        "stalled": "0d5c941b7506442b85ec16fdae2a65c7",
        "stall_over": "ebdf102c2b754239ab8c9a380efaffeb",
        "clock_offset": "5b0e4f0f3c6a4d7e9a51c2d8e3f47a16",
        "clock_in_line": "c7d21a9e64b84f0a8e3b5f6a1d2c9e08",
    ]
}
