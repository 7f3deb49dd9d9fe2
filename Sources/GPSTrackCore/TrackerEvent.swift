import GPSTrackVocabulary

/// Something the tracker reports as it happens.
public enum TrackerEvent: Sendable {
    /// A trip began: in `manual` mode at its first accepted fix (no id); in `auto` mode at the
    /// departure from a stop, reported once the movement qualified as a trip.
    case tripStart(trip: Int?, time: Double, at: Coordinate)
    /// An automatic trip ended (the receiver settled at a stop, a gap, or `stop`).
    case tripEnd(TripFigures)
    /// The parked guard armed around the settled place of a stop.
    case guardArmed(time: Double, at: Coordinate, radiusM: Double)
    /// A fix beyond the guard's radius plus its error: once per parking, with the fix's speed.
    case guardBreach(time: Double, at: Coordinate, parkedAt: Coordinate, distanceM: Double, speedMps: Double?)
    /// A latched breach said again (`guard_breach` with its `repeat`, 1, 2...) until acknowledged,
    /// with where the vehicle is now: the last accepted fix's place, distance and speed.
    case guardRepeat(
        time: Double, at: Coordinate, parkedAt: Coordinate, distanceM: Double, speedMps: Double?, repeat: Int)
    /// A stop long enough to arm the guard while a breach is latched unacknowledged: not armed
    /// (the alarm stays raised where it was), said once for that stop.
    case guardArmRefused(time: Double, at: Coordinate, parkedAt: Coordinate)
    /// The latched breach acknowledged (`guard ack`).
    case guardAck(time: Double)
    /// No accepted fix for `guard_no_position_s` while armed (`repeat` 0 when raised, then 1,
    /// 2... every `guard_repeat_s` until acknowledged): once a silence.
    case guardNoPosition(time: Double, silentS: Double, repeat: Int)
    /// The speed has exceeded the limit in force for `overspeed_min_s` (time: when it began).
    case overspeedStart(time: Double, at: Coordinate, limitKmh: Double, speedMps: Double)
    /// The excess is over.
    case overspeedEnd(
        time: Double, at: Coordinate, limitKmh: Double, maxSpeedMps: Double, durationS: Double, distanceM: Double)
    /// The trip's figures were frozen.
    case tripStop(time: Double?, traveledM: Double)
    /// The reference moved after a run of consistent rejections (time stepped back, or the
    /// earlier position was the outlier). `counted` tells whether the hop to the new position
    /// was within reach and counted; a longer jump is not counted as travel.
    case discontinuity(time: Double, at: Coordinate, counted: Bool)
    /// The first accepted fix after none (the start, a loss): from `device` when gpsd names it.
    case fixAcquired(time: Double, at: Coordinate, device: String?)
    /// The fix is gone: no usable fix for `stale_after_s`, gpsd lost or the receiver removed.
    /// The time is the last accepted fix's.
    case fixLost(time: Double?, reason: FixLoss, device: String?)
    /// The anchor watch decided something (`anchor_dropped`, `anchor_alarm`, ...).
    case anchor(AnchorEvent)
    /// The box's inputs decided something (`ignition_on`, `power_lost`, `sos`, ...).
    case input(InputEvent)

    /// The event's name as used in output (`trip_start`, ...).
    public var name: EventName {
        switch self {
        case .tripStart: .tripStart
        case .tripEnd: .tripEnd
        case .guardArmed: .guardArmed
        case .guardBreach, .guardRepeat: .guardBreach
        case .guardArmRefused: .guardArmRefused
        case .guardAck: .guardAck
        case .guardNoPosition: .guardNoPosition
        case .overspeedStart: .overspeedStart
        case .overspeedEnd: .overspeedEnd
        case .tripStop: .tripStop
        case .discontinuity: .discontinuity
        case .fixAcquired: .fixAcquired
        case .fixLost: .fixLost
        case .anchor(let a): a.name
        case .input(let i): i.name
        }
    }

    /// The fix time it happened at (a trip's end: its end; a lost fix: the last accepted fix's).
    public var time: Double? {
        switch self {
        case .tripStart(_, let at, _), .discontinuity(let at, _, _): at
        case .tripStop(let at, _), .fixLost(let at, _, _): at
        case .fixAcquired(let at, _, _): at
        case .tripEnd(let f): f.end
        case .guardArmed(let at, _, _), .guardBreach(let at, _, _, _, _), .overspeedStart(let at, _, _, _),
            .overspeedEnd(let at, _, _, _, _, _):
            at
        case .guardRepeat(let at, _, _, _, _, _), .guardArmRefused(let at, _, _), .guardAck(let at),
            .guardNoPosition(let at, _, _):
            at
        case .anchor(let a): a.time
        case .input(let i): i.time
        }
    }
}

/// Why the fix was lost.
public enum FixLoss: Sendable, Equatable {
    /// No usable fix for this many seconds of fix time.
    case stale(seconds: Double)
    case gpsdLost
    case receiverRemoved

    /// The reason as it is written (`stale`, `gpsd_lost`, `receiver_removed`).
    public var code: String {
        switch self {
        case .stale: "stale"
        case .gpsdLost: "gpsd_lost"
        case .receiverRemoved: "receiver_removed"
        }
    }

    /// The reason in words, for the journal's message.
    public var text: String {
        switch self {
        case .stale(let s): "no usable fix for \(Int(clamping: s, rounding: .towardZero)) s"
        case .gpsdLost: "gpsd lost"
        case .receiverRemoved: "receiver removed"
        }
    }
}
