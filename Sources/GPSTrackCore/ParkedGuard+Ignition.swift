/// `guard_arm_on_ignition_off` (gpstrackd(8), INPUTS): as hardware trackers do, the guard arms
/// where the ignition went off, `guard_after_s` later (at once with 0), instead of at a stop;
/// the ignition on disarms it quietly (the owner drives away).
extension ParkedGuard {
    /// The ignition went on or off at `time`; `at` is the last accepted fix's place.
    mutating func ignition(on: Bool, time: Double, at: Coordinate?, config: TrackerConfig) -> [TrackerEvent] {
        guard enabled, config.guardArmOnIgnitionOff else { return [] }
        if on {
            ignitionOff = nil
            disarm()
            return []
        }
        guard let at, ignitionOff == nil else { return [] }
        let parked = StopFigures(arrival: time, departure: nil, at: at, afterTrip: nil)
        ignitionOff = parked
        return config.guardAfterS == 0 ? arm(for: parked, at: time, config: config) : []
    }
}
