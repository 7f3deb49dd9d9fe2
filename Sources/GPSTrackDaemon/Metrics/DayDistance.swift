import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The distance traveled today, for `status` and `gpstrackd_distance_today_meters`: what the
/// trip counter added on fixes of the current local day (the system's time zone, read from
/// the fixes' times, never the wall clock), since that day's midnight or the daemon's start.
/// A sink: per step it compares one time and subtracts one distance; the day's bounds are
/// worked out once a day.
final class DayDistance: TrackerSink {
    let name = "day-distance"
    /// The current day's bounds (Unix seconds), from its first fix's time.
    private(set) var dayStart = Double.infinity
    private(set) var dayEnd = -Double.infinity
    /// Metres added today, up to `seen`.
    private(set) var meters = 0.0
    /// The trip counter when last looked at.
    private var growth = TripGrowth()

    /// Hears a step: the counter's growth since the last one is today's, and a fix of
    /// another day starts a new one at 0.
    func take(_ step: TrackerStep) -> [LogEntry] {
        absorb(step.tracker.trip)
        if let time = step.fix?.time, step.accepted, time < dayStart || time >= dayEnd {
            (dayStart, dayEnd) = Self.localDay(containing: time)
            meters = 0
        }
        return []
    }

    /// Today's metres as `status` reports them, with what the counter settled since the
    /// last step; nil before the first accepted fix (no day yet).
    func status(trip: Trip) -> StatusReply.DayStatus? {
        guard dayStart.isFinite else { return nil }
        absorb(trip)
        var d = StatusReply.DayStatus()
        d.date = Self.date(dayStart)
        d.traveledM = meters.rounded(decimals: 2)
        return d
    }

    /// Adds the counter's change (`TripGrowth`): a take-back is today's too.
    private func absorb(_ trip: Trip) { meters = max(0, meters + growth.change(trip)) }

    /// The local midnights before and after `time`.
    static func localDay(containing time: Double) -> (Double, Double) {
        var t = time_t(time.rounded(.down))
        var tm = Glibc.tm()
        localtime_r(&t, &tm)
        (tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_isdst) = (0, 0, 0, -1)
        var next = tm
        let start = Double(mktime(&tm))
        next.tm_mday += 1
        return (start, Double(mktime(&next)))
    }

    /// `time`'s local date, YYYY-MM-DD.
    static func date(_ time: Double) -> String {
        var t = time_t(time)
        var tm = Glibc.tm()
        localtime_r(&t, &tm)
        let two = { (n: Int32) in n < 10 ? "0\(n)" : "\(n)" }
        return "\(tm.tm_year + 1900)-\(two(tm.tm_mon + 1))-\(two(tm.tm_mday))"
    }
}
