#if canImport(Glibc)
import Glibc
#endif

/// One position report as gpsd's TPV message gives it. Unknown values are NaN (or nil for
/// the time), never zero.
///
/// Kept under 128 bytes (the optionals stored without their tag bytes): a fix is copied from
/// stage to stage dozens of times, and a value this size is copied inline, where a larger one
/// was a call to memcpy each time.
public struct Fix: Sendable {
    /// gpsd's fix mode: 0 not seen, 1 no fix, 2 two-dimensional, 3 three-dimensional.
    public var mode: Int
    /// Time of the fix, seconds since the Unix epoch (UTC); nil when gpsd gave none (a time
    /// that is not a number is none either).
    public var time: Double? {
        get { storedTime.isNaN ? nil : storedTime }
        set { storedTime = newValue ?? .nan }
    }
    private var storedTime: Double
    public var latitude: Double
    public var longitude: Double
    /// Height above mean sea level, metres: gpsd's altMSL, else altHAE less its geoidSep when
    /// it gives both; NaN when unknown (never the ellipsoidal height as if it were sea level).
    /// What every outlet sends as the height (OwnTracks `alt`, Traccar `altitude`, GPX `ele`).
    public var altitude: Double
    /// Height above the WGS84 ellipsoid, metres (gpsd's altHAE); NaN when unknown. Kept with
    /// the track point, told nowhere.
    public var altitudeHAE: Double = .nan
    /// Estimated horizontal position error, metres (gpsd's eph); NaN when unknown.
    public var eph: Double
    /// Longitude and latitude error estimates, metres; NaN when unknown.
    public var epx: Double
    public var epy: Double
    /// Speed over ground, m/s; NaN when unknown.
    public var speed: Double
    /// Course over ground, degrees from true north; NaN when unknown.
    public var track: Double
    /// Climb rate, m/s; NaN when unknown.
    public var climb: Double
    /// The receiver that reported it (gpsd's device path); nil when gpsd named none.
    public var device: String?
    /// Horizontal dilution of precision and satellites in the solution, from the receiver's
    /// latest SKY when the epoch was complete (a TPV carries neither); NaN and nil when unknown.
    public var hdop: Double = .nan
    public var satellitesUsed: Int? {
        get { storedSatellitesUsed < 0 ? nil : Int(truncatingIfNeeded: storedSatellitesUsed) }
        set { storedSatellitesUsed = newValue.map { Int32(clamping: max(0, $0)) } ?? -1 }
    }
    private var storedSatellitesUsed: Int32 = -1

    public init(
        mode: Int, time: Double?, latitude: Double = .nan, longitude: Double = .nan,
        altitude: Double = .nan, eph: Double = .nan, epx: Double = .nan, epy: Double = .nan,
        speed: Double = .nan, track: Double = .nan, climb: Double = .nan, device: String? = nil
    ) {
        self.device = device
        self.mode = mode
        self.storedTime = time ?? .nan
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.eph = eph
        self.epx = epx
        self.epy = epy
        self.speed = speed
        self.track = track
        self.climb = climb
    }

    /// The fix's position.
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// The horizontal error estimate: eph, or when gpsd gives none, hypot(epx, epy);
    /// nil when the receiver gives no estimate at all. A negative value is passed on (it marks
    /// an invalid fix, as CoreLocation's negative horizontalAccuracy does).
    public var horizontalError: Double? {
        if eph.isFinite { return eph }
        if epx.isFinite && epy.isFinite { return (epx * epx + epy * epy).squareRoot() }
        return nil
    }

    /// The velocity over ground as east and north components, m/s; nil unless both speed
    /// (not negative) and course are known.
    public var velocity: (east: Double, north: Double)? {
        guard speed.isFinite, speed >= 0, track.isFinite else { return nil }
        let rad = track * Double.pi / 180
        return (speed * sin(rad), speed * cos(rad))
    }

    /// How complete the fix is; the better of two TPVs of one epoch has the higher score.
    var completeness: Int {
        var score = mode * 8
        if horizontalError != nil { score += 4 }
        if speed.isFinite { score += 2 }
        if track.isFinite { score += 1 }
        return score
    }
}
