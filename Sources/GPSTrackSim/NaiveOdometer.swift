import GPSTrackCore
import GPSTrackProtocol

/// The straightforward reading, for comparison in benchmarks: drop invalid fixes, apply a
/// distance filter, sum the hops.
public enum NaiveOdometer {
    /// With `maxErrorM`, fixes whose eph (or hypot(epx, epy)) exceeds it are dropped too.
    public static func traveled(_ fixes: [Fix], distanceFilterM: Double = 10, maxErrorM: Double = .infinity) -> Double {
        var last: Coordinate?
        var total = 0.0
        for fix in fixes
        where fix.mode >= 2 && fix.time != nil && fix.coordinate.isValid
            && (fix.horizontalError ?? 0) <= maxErrorM
        {
            guard let l = last else {
                last = fix.coordinate
                continue
            }
            let d = Geodesic.distance(l, fix.coordinate)
            if d >= distanceFilterM {
                total += d
                last = fix.coordinate
            }
        }
        return total
    }
}
