/// The inputs in the session (gpstrackd(8), INPUTS): a settled reading comes in at its fix
/// time, live (the fix clock) and in replay (its `INPUT` line's time) alike, and its events are
/// sequenced like every other tracker event.
extension TrackingSession {
    /// Takes one settled input reading at fix time `time`.
    public mutating func input(_ reading: InputReading, time: Double) -> [Sequenced] {
        let events = inputs.ingest(
            reading, time: time, at: tracker.lastAccepted?.coordinate,
            guardArmed: tracker.parkedGuard.enabled && tracker.parkedGuard.armedAt != nil)
        var out = events.map { next(.tracker(.input($0))) }
        guard case .level(.ignition, let on) = reading else { return out }
        // `trip_source`: an ignition off ends the open trip at once (after its `ignition_off`).
        let off = events.contains { if case .ignitionOff = $0 { true } else { false } }
        for e in tracker.ignition(on, endingTrip: off, at: time) {
            out.append(next(.tracker(named(e))))
        }
        return out
    }

    /// The time passing without fixes for the panic button's latched alarm (see `tickAnchor`).
    public mutating func tickInputs(now: Double) -> [Sequenced] {
        inputs.tick(now: now, at: tracker.lastAccepted?.coordinate).map { next(.tracker(.input($0))) }
    }

    /// `gpstrackctl sos ack` (none raised: no event).
    public mutating func acknowledgeSOS(time: Double) -> [Sequenced] {
        inputs.acknowledgeSOS(time: time).map { next(.tracker(.input($0))) }
    }
}

extension TrackingSession {
    /// Carries on with the inputs' stored state (`InputMonitor.encodedState`); false when it
    /// does not read (the inputs then start afresh).
    public mutating func restore(inputs text: String) -> Bool {
        guard let state = InputMonitor(state: text, config: inputs.config) else { return false }
        inputs = state
        return true
    }
}
