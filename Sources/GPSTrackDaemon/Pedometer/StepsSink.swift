import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The pedometer's sink of the tracker: trips start and end its counts, accepted fixes teach
/// it the stride, and each trip's steps go to the journal and, with MQTT, as OwnTracks `steps`.
final class StepsSink: TrackerSink {
    let name = "steps"
    /// The pedometer's figures (also fed by the IIO source, asked by `status` and `steps`).
    var figures: StepFigures
    private let mqtt: MQTTPublisher?

    init(figures: StepFigures, mqtt: MQTTPublisher?) {
        self.figures = figures
        self.mqtt = mqtt
    }

    func take(_ step: TrackerStep) -> [LogEntry] {
        var entries: [LogEntry] = []
        for e in step.events {
            guard case .tracker(let t) = e.event else { continue }
            if case .tripStart(_, let time, _) = t { figures.startTrip(since: time) }
            // One steps report per trip: at its trip_end (automatic trips), else at trip_stop.
            if case .tripEnd(let f) = t {
                entries += tripEnded(from: f.start, to: f.end)
            } else if case .tripStop = t, !step.events.contains(where: \.isTripEnd) {
                entries += tripEnded(from: step.tracker.trip.startedAt, to: step.tracker.lastAccepted?.time)
            }
        }
        if step.accepted, let t = step.fix?.time { figures.observe(traveledM: step.tracker.trip.traveledM, at: t) }
        return entries
    }

    func finish(_ last: TrackerStep) { figures.save(force: true) }

    /// A trip ended: its steps for the journal and, with MQTT, as OwnTracks `steps`.
    func tripEnded(from: Double?, to: Double?) -> [LogEntry] {
        guard figures.source != nil else { return [] }
        figures.save(force: true)
        if let mqtt {
            mqtt.enqueue(kind: .steps, topic: mqtt.baseTopic, payload: figures.tripMessage(from: from, to: to), qos: 1)
        }
        return [figures.tripEntry()]
    }

    /// OwnTracks' `reportSteps`: a `steps` message, by default from local midnight until now.
    func report(from: Double?, to: Double?) {
        guard let mqtt, figures.source != nil else { return }
        let now = Double(time(nil))
        var midnight = now
        var t = time_t(now)
        var local = tm()
        if localtime_r(&t, &local) != nil {
            local.tm_hour = 0
            local.tm_min = 0
            local.tm_sec = 0
            midnight = Double(mktime(&local))
        }
        let from = from ?? midnight
        let payload = figures.reportMessage(from: from, to: max(from, to ?? now))
        mqtt.enqueue(kind: .steps, topic: mqtt.baseTopic, payload: payload, qos: 1)
    }
}
