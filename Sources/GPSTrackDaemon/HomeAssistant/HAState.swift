import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// What the state topic (`gpstrackd/<node>/state`, retained) says: one JSON object every
/// entity's `value_template` reads. Numbers are numbers, unknown ones null (HA's "unknown");
/// yes/no entities `ON`/`OFF`.
struct HAState: Encodable, Sendable, Equatable {
    enum FenceState: String, Sendable, CaseIterable { case inside, outside, unknown }

    /// The device tracker's attributes (HA's names).
    struct Tracker: Encodable, Sendable, Equatable {
        var latitude: Double
        var longitude: Double
        var gpsAccuracy: Double?
        var altitude: Double?
        var course: Double?
        /// km/h.
        var speed: Double?
        enum CodingKeys: String, CodingKey {
            case latitude, longitude
            case gpsAccuracy = "gps_accuracy"
            case altitude, course, speed
        }
    }

    /// The first fence holding the position (file order), else `not_home`; while the fix is
    /// lost, the last fix's (the tracker stays where it was last seen).
    var zone = "not_home"
    var tracker: Tracker?
    var odometerKm = 0.0
    var todayKm: Double?
    var tripKm = 0.0
    var tripS: Double?
    var speedKmh: Double?
    var satellites: Int?
    var hdop: Double?
    /// Seconds since the last accepted fix was received; filled in as the state goes out.
    var fixAgeS: Double?
    var moving = false
    var fix = false
    var guardArmed = false
    var guardBreach = false
    var anchorAlarm = false
    var overspeed = false
    @Omitted var steps: Int?
    @Omitted var batteryPct: Int?
    @Omitted var externalPower: Bool?
    @Omitted var engineH: Double?
    @Omitted var ignition: Bool?
    /// Each fence's state by its object id.
    var fences: [String: FenceState] = [:]

    enum CodingKeys: String, CodingKey {
        case zone, tracker
        case odometerKm = "odometer_km"
        case todayKm = "today_km"
        case tripKm = "trip_km"
        case tripS = "trip_s"
        case speedKmh = "speed_kmh"
        case satellites, hdop
        case fixAgeS = "fix_age_s"
        case moving, fix
        case guardArmed = "guard_armed"
        case guardBreach = "guard_breach"
        case anchorAlarm = "anchor_alarm"
        case overspeed, steps
        case batteryPct = "battery_pct"
        case externalPower = "external_power"
        case engineH = "engine_h"
        case ignition, fences
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        func onOff(_ b: Bool) -> String { b ? "ON" : "OFF" }
        try c.encode(zone, forKey: .zone)
        try c.encode(tracker, forKey: .tracker)
        try c.encode(odometerKm, forKey: .odometerKm)
        try c.encode(todayKm, forKey: .todayKm)
        try c.encode(tripKm, forKey: .tripKm)
        try c.encode(tripS, forKey: .tripS)
        try c.encode(speedKmh, forKey: .speedKmh)
        try c.encode(satellites, forKey: .satellites)
        try c.encode(hdop, forKey: .hdop)
        try c.encode(fixAgeS, forKey: .fixAgeS)
        try c.encode(onOff(moving), forKey: .moving)
        try c.encode(onOff(fix), forKey: .fix)
        try c.encode(onOff(guardArmed), forKey: .guardArmed)
        try c.encode(onOff(guardBreach), forKey: .guardBreach)
        try c.encode(onOff(anchorAlarm), forKey: .anchorAlarm)
        try c.encode(onOff(overspeed), forKey: .overspeed)
        try c.encode(_steps, forKey: .steps)
        try c.encode(_batteryPct, forKey: .batteryPct)
        if let externalPower { try c.encode(onOff(externalPower), forKey: .externalPower) }
        try c.encode(_engineH, forKey: .engineH)
        if let ignition { try c.encode(onOff(ignition), forKey: .ignition) }
        // In the objects' order, so that one state is always the same text.
        var f = c.nestedContainer(keyedBy: JSONKey.self, forKey: .fences)
        for (object, state) in fences.sorted(by: { $0.key < $1.key }) {
            try f.encode(state.rawValue, forKey: JSONKey(stringValue: object))
        }
    }

    /// The yes/no part: a change of it goes out at once, whatever `ha_min_interval_s`.
    var switches: [Bool?] {
        [moving, fix, guardArmed, guardBreach, anchorAlarm, overspeed, externalPower, ignition]
    }
    /// Equal for two states that differ only in figures.
    var discrete: String {
        zone + switches.map { $0.map { $0 ? "1" : "0" } ?? "-" }.joined()
            + fences.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }.joined(separator: ",")
    }

    /// No fix, no figures (tests build from it).
    init() {}

    /// The state a step leaves: `fences` the announced fences' object ids, `todayM` the day's
    /// metres.
    init(
        step: TrackerStep, fences: [(fence: Fence, object: String)], todayM: Double?, setup: HAEntityList.Setup,
        tripMode: TrackerConfig.TripMode
    ) {
        let t = step.tracker
        odometerKm = (t.counters.odometerM / 1000).rounded(decimals: 3)
        todayKm = todayM.map { ($0 / 1000).rounded(decimals: 3) }
        tripKm = (t.trip.traveledM / 1000).rounded(decimals: 3)
        if let start = t.trip.startedAt, let end = t.trip.lastFix?.time ?? t.lastAccepted?.time {
            tripS = max(0, end - start).rounded(decimals: 0)
        }
        fix = t.lastAccepted != nil && step.hasFix
        // The tracker stays where the last fix put it while the fix is lost (`fix` says so);
        // the figures of the moment go unknown.
        if let f = t.lastAccepted {
            tracker = Tracker(
                latitude: f.latitude.rounded(decimals: 7), longitude: f.longitude.rounded(decimals: 7),
                gpsAccuracy: f.horizontalError.map { $0.rounded(decimals: 1) },
                altitude: f.altitude.isFinite ? f.altitude.rounded(decimals: 1) : nil,
                course: f.track.isFinite ? f.track.rounded(decimals: 1) : nil,
                speed: f.speed.isFinite ? (f.speed * 3.6).rounded(decimals: 1) : nil)
            if fix {
                speedKmh = tracker?.speed
                satellites = f.satellitesUsed
                hdop = f.hdop.isFinite ? f.hdop.rounded(decimals: 2) : nil
            }
        }
        switch tripMode {
        case .auto: moving = t.trips.motion.0 == .moving
        case .manual: moving = fix && (t.lastAccepted?.speed ?? 0) >= Self.movingMps
        }
        guardArmed = t.parkedGuard.armedAt != nil
        guardBreach = t.parkedGuard.alarmState == "alarm"
        anchorAlarm = step.anchor?.alarmState == "alarm"
        overspeed = step.overspeeding
        if setup.power {
            batteryPct = step.inputs.batteryPct
            externalPower = step.inputs.power
        }
        if setup.ignition {
            engineH = (step.inputs.engineTotalS / 3600).rounded(decimals: 3)
            ignition = step.inputs.ignition
        }
        // As the daemon has them (`status`'s fences): unknown before the first fix and while the
        // fix is lost.
        let inside = step.fences.inside.map(Set.init) ?? []
        for (fence, object) in fences {
            self.fences[object] = !fix ? .unknown : inside.contains(fence.name ?? fence.id) ? .inside : .outside
        }
        if fix, let first = fences.first(where: { self.fences[$0.object] == .inside }) {
            zone = first.fence.name ?? first.fence.id
        }
    }

    /// With `trip_mode = manual` (no motion detector), moving is a speed over ground of at least
    /// this: 1 m/s, above a standing receiver's noise.
    static let movingMps = 1.0
}
