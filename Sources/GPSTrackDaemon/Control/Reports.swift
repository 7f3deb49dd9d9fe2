import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The core's and the parts' values as the wire's report types (chrony's `reports.h`): each a
/// pure translation, used by the tracker's snapshot and by the replies of its commands.
public enum Reports {
    /// The last accepted fix for `status`; `ageS`: seconds since it arrived.
    static func fix(_ fix: Fix, minimumSpeed: Double, ageS: Double?) -> StatusReply.FixStatus {
        var f = StatusReply.FixStatus()
        f.mode = fix.mode
        f.time = fix.time.map(Timestamp.iso8601)
        f.lat = fix.latitude
        f.lon = fix.longitude
        f.eph = fix.horizontalError?.rounded(decimals: 2)
        f.speed = fix.speed.rounded(decimals: 3)
        f.track = fix.track.rounded(decimals: 1)
        f.courseText = CourseText(track: fix.track, speed: fix.speed, minimumSpeed: minimumSpeed).text
        f.ageS = ageS?.rounded(decimals: 1)
        return f
    }

    /// The manual trip counter for `status`, `start`, `stop` and `reset`.
    static func manualTrip(_ trip: Trip) -> ManualTrip {
        var t = ManualTrip()
        t.state = trip.state.rawValue
        t.startedAt = trip.startedAt.map(Timestamp.iso8601)
        t.start = trip.start.map { LatLon(lat: $0.latitude, lon: $0.longitude) }
        t.end = trip.end.map { LatLon(lat: $0.latitude, lon: $0.longitude) }
        t.traveledM = trip.traveledM.rounded(decimals: 2)
        t.straightLineM = trip.straightLineM.rounded(decimals: 2)
        return t
    }

    /// The parked guard's state for `status` and `guard`.
    static func guardStatus(_ g: ParkedGuard, radiusM: Double) -> GuardStatus {
        var j = GuardStatus()
        j.state = g.state
        if let at = g.armedAt {
            j.armedAt = LatLon(lat: at.latitude, lon: at.longitude)
            j.since = .some(g.armedSince.map(Timestamp.iso8601))
            j.radiusM = radiusM.rounded(decimals: 1)
        }
        j.alarm = g.alarmState
        return j
    }

    /// One automatic trip for `trips` and `status`.
    static func autoTrip(_ f: TripFigures, state: String) -> AutoTrip {
        var j = AutoTrip(
            id: f.id, state: state, startedAt: Timestamp.iso8601(f.start),
            from: place(f.from, fences: f.fromFences), traveledM: f.traveledM.rounded(decimals: 2))
        j.endedAt = Timestamp.iso8601(f.end)
        j.to = place(f.to, fences: f.toFences)
        j.straightLineM = f.straightLineM.rounded(decimals: 2)
        j.durationS = f.durationS.rounded(decimals: 1)
        j.movingS = f.movingS.rounded(decimals: 1)
        j.maxSpeedMps = f.maxSpeedMps.rounded(decimals: 2)
        j.avgSpeedMps = f.avgSpeedMps.rounded(decimals: 2)
        j.engineS = f.engineS?.rounded(decimals: 1)
        return j
    }

    /// A place: `{"lat":…,"lon":…,"fences":[NAMES]}`.
    static func place(_ c: Coordinate, fences: [String]) -> Place {
        Place(lat: c.latitude, lon: c.longitude, fences: fences)
    }

    /// The open automatic trip so far, if one is open.
    static func openTrip(_ session: TrackingSession) -> AutoTrip? {
        guard let open = session.tracker.trips.openTrip else { return nil }
        var j = AutoTrip(
            id: open.id, state: "open", startedAt: Timestamp.iso8601(open.start),
            from: place(open.from, fences: session.fenceNames(at: open.from)),
            traveledM: open.traveledM.rounded(decimals: 2))
        if let now = session.tracker.lastAccepted?.time { j.durationS = (now - open.start).rounded(decimals: 1) }
        return j
    }

    /// Every fence's state; `detailed` adds its kind and last event (`fences`).
    static func fences(_ monitor: GeofenceMonitor?, detailed: Bool) -> [FenceReport] {
        guard let monitor else { return [] }
        return monitor.index.fences.enumerated().map { i, f in
            let st = monitor.statuses[i]
            var o = FenceReport()
            o.id = f.id
            o.name = f.name
            if detailed { o.kind = f.shape.kind }
            o.state = st.state.rawValue
            o.since = st.since.map(Timestamp.iso8601)
            if detailed {
                o.lastEvent = .some(
                    st.lastEvent.map { k in
                        if case .state(let s) = k { return "state:\(s.rawValue)" }
                        return k.name.rawValue
                    })
            }
            return o
        }
    }

    static func counters(_ c: FixCounters) -> StatusReply.Counters {
        var r = StatusReply.Counters()
        r.fixesTotal = c.total
        r.fixesAccepted = c.accepted
        r.fixesDelivered = c.delivered
        r.fixesRejected = NamedCounts(Dictionary(uniqueKeysWithValues: c.rejected.map { ($0.key.rawValue, $0.value) }))
        return r
    }

    /// The store's state and counts (`off` without one).
    static func storage(_ store: Store?) -> StatusReply.StorageStatus {
        var r = StatusReply.StorageStatus()
        guard let store else { return r }
        r.state = store.degradedReason == nil ? "ok" : "degraded"
        r.reason = store.degradedReason
        r.path = store.path
        r.droppedEvents = store.droppedEvents
        r.droppedPoints = store.droppedPoints
        r.thinnedPoints = store.thinnedPoints
        r.thinnedLocations = store.thinnedLocations
        r.waitingEvents = store.waitingEvents
        r.waitingPoints = store.waitingPoints
        return r
    }

    static func sky(_ sky: GPSDDecoder.Sky) -> StatusReply.SkyStatus {
        var k = StatusReply.SkyStatus()
        k.device = sky.device
        k.satellitesUsed = sky.used
        k.satellitesSeen = sky.seen
        (k.hdop, k.vdop, k.pdop) = (sky.hdop, sky.vdop, sky.pdop)
        return k
    }

    /// Seconds since `oldest` (Unix time) while anything waits.
    static func age(_ queued: Int, _ oldest: Double?) -> Double? {
        queued > 0 ? oldest.map { max(0, Double(time(nil)) - $0).rounded(decimals: 1) } : nil
    }

    /// An HTTP uplink's queue and last results.
    static func uplink(_ uplink: any UplinkSink) -> StatusReply.UplinkStatus {
        let s = uplink.sender.snapshot
        var t = StatusReply.UplinkStatus()
        t.connected = s.connected
        t.queued = s.queued
        t.oldestAgeS = age(s.queued, s.oldest)
        t.lastSuccess = s.lastSuccess.map(Timestamp.iso8601)
        t.lastError = s.lastError
        t.dropped = s.dropped
        t.expired = uplink.sender.outbox.maxAgeS == nil ? nil : s.expired
        t.skippedTimeOff = uplink.clock.skippedFixes
        return t
    }
}
