import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The OwnTracks JSON messages the daemon publishes. Pure: no broker, no clock; the caller
/// gives every time.
enum OwnTracks {
    /// `waypoints` for the circular fences (polygons and corridors have no OwnTracks form).
    static func waypoints(_ fences: [Fence], loadedAt: Int) -> String {
        let items = fences.compactMap { f -> String? in
            guard case .circle(let c, let r) = f.shape else { return nil }
            var w = JSONObject()
            w.add("_type", "waypoint")
            w.add("desc", f.name ?? f.id)
            w.add("lat", c.latitude)
            w.add("lon", c.longitude)
            w.add("rad", Int(r.rounded()))
            w.add("rid", f.id)
            w.add("tst", loadedAt)
            return w.encoded
        }
        var o = JSONObject()
        o.add("_type", "waypoints")
        o.add("waypoints", raw: "[" + items.joined(separator: ",") + "]")
        return o.encoded
    }

    /// `location` for an accepted fix; `inRegions` names the fences it is inside (nil: no fences);
    /// `trigger` is OwnTracks' `t` (`t` a timer, `r` a `reportLocation` command).
    static func location(
        _ fix: Fix, time t: Double, tid: String, assumedErrorM: Double, inRegions: [String]?,
        trigger: String = "t"
    ) -> String {
        var o = JSONObject()
        o.add("_type", "location")
        o.add("tid", tid)
        o.add("lat", fix.latitude)
        o.add("lon", fix.longitude)
        o.add("tst", Int(t))
        o.add("acc", accuracy(fix.horizontalError, assumed: assumedErrorM))
        if fix.altitude.isFinite { o.add("alt", Int(fix.altitude.rounded())) }
        if fix.speed.isFinite { o.add("vel", Int((fix.speed * 3.6).rounded())) }
        if fix.track.isFinite { o.add("cog", Int(fix.track.rounded()) % 360) }
        o.add("t", trigger)
        if let inRegions {
            o.add("inregions", raw: "[" + inRegions.map(JSONObject.quote).joined(separator: ",") + "]")
        }
        return o.encoded
    }

    /// `transition` (`t: c`): an enter or leave of a region, or of `parked` for a guard breach.
    static func transition(
        tid: String, enter: Bool, desc: String, rid: String, wtst: Int, time: Double,
        at: Coordinate?, acc: Int
    ) -> String {
        var o = JSONObject()
        o.add("_type", "transition")
        o.add("tid", tid)
        o.add("event", enter ? "enter" : "leave")
        o.add("desc", desc)
        o.add("rid", rid)
        o.add("wtst", wtst)
        o.add("tst", Int(time))
        o.add("lat", at?.latitude)
        o.add("lon", at?.longitude)
        o.add("acc", acc)
        o.add("t", "c")
        return o.encoded
    }

    /// OwnTracks `acc`: whole metres, at least 1 (Home Assistant drops a location whose `acc`
    /// is missing or 0); the assumed error when the receiver gives none.
    static func accuracy(_ error: Double?, assumed: Double) -> Int {
        let e = error.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? assumed
        return max(1, Int(min(e, 1e6).rounded()))
    }
}
