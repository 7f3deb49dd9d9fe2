/// The tracking core's tunables. Defaults suit a car, a walker and a train alike.
public struct TrackerConfig: Sendable, Equatable {
    /// A fix is delivered to the odometer only when it lies at least this far from the last
    /// delivered position (CoreLocation's `distanceFilter`). Metres, >= 0.
    public var distanceFilterM: Double = 10
    /// Fixes whose horizontal error estimate exceeds this are rejected. Metres, > 0.
    public var maxHorizontalErrorM: Double = 50
    /// Jumps implying more than this speed are rejected: 100 m/s lets a car on a motorway and a
    /// high-speed train (~90 m/s) through. m/s, > 0.
    public var maxSpeedMps: Double = 100
    /// Below this reported speed the receiver is taken as standing still, and only a
    /// displacement beyond the creep distance is counted. m/s, >= 0.
    public var stationarySpeedMps: Double = 0.5
    /// While standing still (or with no speed from the receiver), a displacement must exceed
    /// the larger of this and `creepErrorFactor` times the error estimate to count. Metres.
    public var creepDistanceM: Double = 25
    /// Multiplier of the horizontal error estimate for the creep distance.
    public var creepErrorFactor: Double = 3
    /// Error assumed for fixes that carry no estimate at all. Metres, > 0.
    public var assumedErrorM: Double = 15
    /// The reported course is `unknown` below this speed. m/s.
    public var minCourseSpeedMps: Double = 0.5

    /// Geofences: the least margin a position must lie inside a boundary to enter, or outside
    /// to exit; the fix's error estimate widens it. Metres, >= 0.
    public var hysteresisM: Double = 10
    /// Geofences: with no accepted fix for this long (fix time), every fence is `unknown`.
    /// Seconds, > 0.
    public var staleAfterS: Double = 15
    /// Geofences: report a fence passed between two accepted fixes, neither inside it, as an
    /// `enter` and an `exit` marked `crossed`, at times interpolated along the segment.
    public var detectCrossings = true

    /// `auto`: trips begin and end at stops by themselves; `manual`: one trip from `start` to
    /// `stop` (the control commands), as the odometer always counted.
    public enum TripMode: String, Sendable { case auto, manual }
    public var tripMode = TripMode.auto
    /// What makes a trip (`trip_source`, with `trip_mode = auto`): GPS motion alone, the
    /// ignition (a trip only while it is on; off ends one at once), or both (off ends one at
    /// once; GPS motion starts one unless the ignition is known to be off).
    public enum TripSource: String, Sendable { case gps, ignition, both }
    public var tripSource = TripSource.gps
    /// `guard_arm_on_ignition_off`: the guard arms where the ignition went off (not at a stop).
    public var guardArmOnIgnitionOff = false
    /// A stop is the receiver staying within a small area for at least this long. Seconds, > 0.
    public var minStopS: Double = 300
    /// A movement between two stops is a trip when it covers at least this distance...
    public var minTripDistanceM: Double = 200
    /// ...and lasts at least this long (seconds); shorter ones add nothing to any trip.
    public var minTripS: Double = 60
    /// A gap without any accepted fix longer than this ends a trip at its last fix. Seconds.
    public var maxGapS: Double = 1800

    /// The parked guard: on or off at start (`gpstrackctl guard on|off` changes it).
    public var guardOn = false
    /// The guard arms after the receiver has stood at a stop this long. Seconds, > 0.
    public var guardAfterS: Double = 600
    /// A fix this far (plus its error estimate) from the parked place breaches it. Metres, > 0.
    public var guardRadiusM: Double = 100
    /// A latched breach is said again this often until `guard ack` (fix time). Seconds, > 0.
    public var guardRepeatS: Double = 120
    /// No accepted fix for this long while the guard is armed raises `guard_no_position`
    /// (a jammed or removed antenna). Seconds, > 0.
    public var guardNoPositionS: Double = 300
    /// Overspeed: the limit everywhere, km/h (nil: none but the fences' own).
    public var speedLimitKmh: Double?
    /// Overspeed: seconds above the limit before `overspeed_start`, >= 0.
    public var overspeedMinS: Double = 10
    /// The anchor watch's tunables (`anchor_*`).
    public var anchor = AnchorConfig()
    /// The inputs' thresholds (`battery_low_pct`).
    public var inputs = InputMonitor.Config()

    public init() {}
}
