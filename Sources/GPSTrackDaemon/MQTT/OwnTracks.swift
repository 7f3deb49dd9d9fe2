import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The OwnTracks JSON messages the daemon publishes. Pure: no broker, no clock; the caller
/// gives every time.
enum OwnTracks {
    /// The box's device name for OwnTracks: the host name's first label ("gpstrackd" without).
    static func hostDevice() -> String {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count)
        let name = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.split(separator: ".").first.map(String.init) ?? "gpstrackd"
    }

    /// OwnTracks' two-letter tracker id, the one rule for MQTT and HTTP: the device name's last
    /// two letters or digits, lower case, padded with "x".
    static func trackerID(device: String) -> String {
        let tail = String(device.filter { $0.isLetter || $0.isNumber }.suffix(2)).lowercased()
        return tail + String(repeating: "x", count: 2 - tail.count)
    }

    /// `waypoints` for the circular fences (polygons and corridors have no OwnTracks form).
    static func waypoints(_ fences: [Fence], loadedAt: Int) -> String {
        let items = fences.compactMap { f -> Waypoint? in
            guard case .circle(let c, let r) = f.shape else { return nil }
            return Waypoint(
                desc: f.name ?? f.id, lat: c.latitude, lon: c.longitude, rad: Int(clamping: r), rid: f.id,
                tst: loadedAt)
        }
        return ReplyEncoder.encode(Waypoints(waypoints: items))
    }

    /// `location` for an accepted fix; `inRegions` names the fences it is inside (nil: no fences);
    /// `trigger` is OwnTracks' `t` (`t` a timer, `r` a `reportLocation` command).
    static func location(
        _ fix: Fix, time t: Double, tid: String, assumedErrorM: Double, inRegions: [String]?,
        trigger: String = "t", battery: Battery = Battery()
    ) -> String {
        ReplyEncoder.encode(
            Location(
                tid: tid, lat: fix.latitude, lon: fix.longitude, tst: Int(clamping: t, rounding: .towardZero),
                acc: accuracy(fix.horizontalError, assumed: assumedErrorM),
                alt: whole(fix.altitude), vel: whole(fix.speed * 3.6), cog: whole(fix.track).map { $0 % 360 },
                batt: battery.batt, bs: battery.bs, t: trigger, inregions: inRegions))
    }

    /// The apps' `batt` (%) and `bs` (1 unplugged, 2 charging, 3 full), from `input_power`;
    /// both left out without it.
    struct Battery: Equatable {
        var batt: Int?
        var bs: Int?

        init() {}

        init(_ inputs: InputMonitor) {
            batt = inputs.batteryPct
            bs = inputs.power.map { online in !online ? 1 : inputs.batteryPct == 100 ? 3 : 2 }
        }
    }

    /// `transition` (`t: c`): an enter or leave of a region, or of `parked` for a guard breach.
    static func transition(
        tid: String, enter: Bool, desc: String, rid: String, wtst: Int, time: Double,
        at: Coordinate?, acc: Int
    ) -> String {
        ReplyEncoder.encode(
            Transition(
                tid: tid, event: enter ? "enter" : "leave", desc: desc, rid: rid, wtst: wtst,
                tst: Int(clamping: time, rounding: .towardZero),
                lat: at?.latitude, lon: at?.longitude, acc: acc))
    }

    /// `x` in whole units; nil when not a number or beyond any real figure (gpsd passes on what
    /// a receiver says, and `Int(_:)` traps from 9.2e18).
    static func whole(_ x: Double) -> Int? {
        guard x.isFinite, x.magnitude < 1e15 else { return nil }
        return Int(checking: x)
    }

    /// OwnTracks `acc`: whole metres, at least 1 (Home Assistant drops a location whose `acc`
    /// is missing or 0); the assumed error when the receiver gives none.
    static func accuracy(_ error: Double?, assumed: Double) -> Int {
        let e = error.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? assumed
        return max(1, Int(clamping: min(e, 1e6)))
    }

    // The messages' members in OwnTracks' order, as the daemon has always written them.

    struct Waypoint: Encodable {
        var _type = "waypoint"
        var desc: String
        var lat: Double
        var lon: Double
        var rad: Int
        var rid: String
        var tst: Int
    }

    struct Waypoints: Encodable {
        var _type = "waypoints"
        var waypoints: [Waypoint]
    }

    /// `alt`, `vel`, `cog` only when the receiver gave them (as real figures); `inregions` only
    /// with fences.
    struct Location: Encodable {
        var _type = "location"
        var tid: String
        var lat: Double
        var lon: Double
        var tst: Int
        var acc: Int
        @Omitted var alt: Int?
        @Omitted var vel: Int?
        @Omitted var cog: Int?
        @Omitted var batt: Int?
        @Omitted var bs: Int?
        var t: String
        @Omitted var inregions: [String]?
    }

    /// `lat`/`lon` null when no position is known.
    struct Transition: Encodable {
        var _type = "transition"
        var tid: String
        var event: String
        var desc: String
        var rid: String
        var wtst: Int
        var tst: Int
        var lat: Double?
        var lon: Double?
        var acc: Int
        var t = "c"
    }
}
