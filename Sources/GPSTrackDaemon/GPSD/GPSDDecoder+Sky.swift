import CGPS
import GPSTrackCore

/// SKY reports: satellites used and in view and the dilutions of precision, as libgps
/// decoded them.
extension GPSDDecoder {
    /// One receiver's sky: nil where the report had no value.
    public struct Sky: Sendable, Equatable {
        public var device: String?
        /// Satellites in the solution and in view (nil without a satellite list).
        public var used: Int?
        public var seen: Int?
        public var hdop: Double?
        public var vdop: Double?
        public var pdop: Double?
        public init(
            device: String? = nil, used: Int? = nil, seen: Int? = nil, hdop: Double? = nil, vdop: Double? = nil,
            pdop: Double? = nil
        ) {
            self.device = device
            self.used = used
            self.seen = seen
            self.hdop = hdop
            self.vdop = vdop
            self.pdop = pdop
        }
    }

    /// Most receivers whose SKY times are kept; past it they start afresh (a hostile gpsd
    /// naming endless devices costs no memory).
    static let skyReceiversKept = 64

    /// Whether this SKY is to be read: never without a time (replay has no use for it), else
    /// once per `skyIntervalS` per receiver, of monotonic time or of the receiver's fix time
    /// (90% of it, for a receiver's jitter): a feed played faster than real time still has its
    /// HDOP and satellites read once per second of fixes, for the track points they go with.
    func skyDue(_ body: ArraySlice<UInt8>, now: Double?) -> Bool {
        guard let now else { return false }
        let key = Self.stringMember("device", in: body) ?? ""
        let fix = epochTime[key]
        if let last = skyRead[key], now - last.now < skyIntervalS, now >= last.now {
            // The first epoch with a time, or a second of fixes later (or a clock gone back).
            guard let fix, last.fix.map({ fix - $0 >= skyIntervalS * 0.9 || fix < $0 }) ?? true else { return false }
        }
        if skyRead.count >= Self.skyReceiversKept { skyRead.removeAll(keepingCapacity: true) }
        skyRead[key] = (now, fix)
        return true
    }

    /// Notes a TPV's time for its receiver's SKYs (see `skyDue`).
    func noteEpoch(_ fix: Fix) {
        guard let t = fix.time else { return }
        let key = fix.device ?? ""
        // One hash a fix: the receiver seen before is updated where it is.
        if let at = epochTime.index(forKey: key) {
            epochTime.values[at] = t
            return
        }
        if epochTime.count >= Self.skyReceiversKept { epochTime.removeAll(keepingCapacity: true) }
        epochTime[key] = t
    }

    /// What libgps unpacked from the SKY `body`.
    func sky(_ body: ArraySlice<UInt8>) -> Record {
        let set = gpstrack_set(data)
        let dop = gpstrack_dop(data)!.pointee
        func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
        // libgps keeps the last path it read: only a SKY naming its device has one.
        var s = Sky(
            device: Self.stringMember("device", in: body), hdop: finite(dop.hdop), vdop: finite(dop.vdop),
            pdop: finite(dop.pdop))
        if set & GPSTRACK_SATELLITE_SET != 0 {
            s.used = Int(gpstrack_satellites_used(data))
            s.seen = Int(gpstrack_satellites_visible(data))
        }
        return .sky(s)
    }
}
