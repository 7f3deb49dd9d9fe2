import GPSTrackCore
import GPSTrackProtocol

/// The inputs' side of the tracker (gpstrackd(8), INPUTS): a settled reading is stamped with
/// the fix clock (the last accepted fix's time plus the time since it came) and goes to the
/// session like a fix's events; before the first fix it waits (the last reading of each input)
/// and goes in at the first one. The input's trouble is journaled.
extension TrackerService {
    public func handleInput(_ event: InputSource.Event) {
        switch event {
        case .reading(let reading):
            guard let now = inputTime else {
                pendingInputs[reading.input] = reading
                return
            }
            apply(reading, time: now)
        case .failed(let name, let reason):
            emit(
                LogEntry(
                    event: .inputFailed, priority: .warning,
                    message: "Input \(name.rawValue) cannot be read: \(reason); its last state stands",
                    fields: [(.input, name.rawValue), (.reason, reason)]))
        case .restored(let name):
            emit(
                LogEntry(
                    event: .inputRestored, priority: .notice, message: "Input \(name.rawValue) reads again",
                    fields: [(.input, name.rawValue)]))
        case .unsteady(let name, let n):
            emit(
                LogEntry(
                    event: .inputUnsteady, priority: .warning,
                    message:
                        "Input \(name.rawValue) changed \(n) times in \(EventLog.whole(InputDebounce.unsteadyWindowS)) s; "
                        + "its last settled state stands until it is quiet",
                    fields: [(.input, name.rawValue), (.value, String(n))]))
        case .noCapacity(let name, let source):
            emit(
                LogEntry(
                    event: .inputFailed, priority: .notice,
                    message: "Input \(name.rawValue): \(source) has no capacity; the battery level is not watched",
                    fields: [(.input, name.rawValue), (.field, "capacity")]))
        }
    }

    /// The readings that came before the first fix, at the first one.
    func applyPendingInputs() {
        guard !pendingInputs.isEmpty, let now = inputTime else { return }
        let waiting = InputName.allCases.compactMap { pendingInputs[$0] }
        pendingInputs = [:]
        for reading in waiting { apply(reading, time: now) }
    }

    /// The fix clock to the millisecond, as the reading's `INPUT` line writes it, so that a
    /// replay of that line decides at the same time.
    var inputTime: Double? { fixClock.map { ($0 * 1000).rounded(.down) / 1000 } }

    /// One reading into the session: journaled first as its `INPUT` line (`input_reading`, info:
    /// what a replay of the day needs besides gpsd's log), then its events delivered.
    private func apply(_ reading: InputReading, time: Double) {
        let line = ReplayInput.line(reading, time: time)
        log(
            LogEntry(
                event: .inputReading, priority: .info, message: line,
                fields: [(.input, reading.input.rawValue), (.time, Timestamp.iso8601(time)), (.raw, line)]))
        let events = session.input(reading, time: time)
        if !events.isEmpty { deliver(events, force: true) }
    }

    /// `gpstrackctl sos ack`: the panic alarm acknowledged at the fix clock.
    func acknowledgeSOS() -> Result<Reply, ControlError> {
        guard let alarm = session.inputs.sos else { return .failure(ControlError("no SOS has been raised")) }
        // Before the first fix after a restart: the latch's last word plus the time since the start.
        let now = anchorNow() ?? alarm.lastSaidAt + max(0, clock() - startedAt)
        deliver(session.acknowledgeSOS(time: now), force: true)
        return .success(SOSReply(sos: "acknowledged"))
    }

    /// Carries on with the inputs' state the state database keeps (the engine's total, the
    /// latched alarms): called once at start, before the first fix. A row that does not read is
    /// named once and left in the file.
    public func restoreInputs() {
        guard let text = store?.loadInputs() else { return }
        guard session.restore(inputs: text) else {
            let value = String(String.UnicodeScalarView(text.unicodeScalars.prefix(200)))
            log(
                LogEntry(
                    event: .damagedRow, priority: .warning,
                    message: "State database: the inputs' row does not read; not loaded, left in the file",
                    fields: [(.table, "inputs"), (.row, "1"), (.field, "state"), (.value, value)]))
            return
        }
        let i = session.inputs
        var said = ["engine \(EventLog.whole(i.engineTotalS.rounded())) s in total"]
        if i.sosRaised { said.append("SOS raised") }
        if i.powerAlarm.map({ !$0.acknowledged }) == true { said.append("power loss alarm raised") }
        if i.batteryLow { said.append("battery low") }
        log(
            LogEntry(
                event: .restored, priority: .notice, message: "Inputs carried on: " + said.joined(separator: ", "),
                fields: [(.engineTotalS, EventLog.number(i.engineTotalS))]))
    }
}
