/// Recognises a speed that gpsd made up. For a receiver whose sentences carry no speed (GGA
/// alone, RMC with empty fields), gpsd 3.22 fills in `speed` as the hop from its previous
/// fix over the time between, and no `track`. Such a speed restates the positions' jitter as
/// motion: taken as Doppler, it would back every jump and every wander hop it came from. So
/// a speed without a track that matches the hop from the previous epoch is dropped, and the
/// fix is judged as what it is, a fix without speed.
public struct DerivedSpeed: Sendable {
    /// How closely a made-up speed restates the hop: gpsd's own arithmetic on positions
    /// rounded to the NMEA's 1e-5 minutes (about 2 cm), over one epoch.
    static let toleranceMps = 0.03
    static let toleranceShare = 0.006
    private var previous: Fix?

    public init() {}

    /// The fix, with its speed dropped when gpsd derived it from the positions.
    public mutating func screen(_ fix: Fix) -> Fix {
        defer { if fix.coordinate.isValid, fix.time != nil { previous = fix } }
        guard fix.speed.isFinite, !fix.track.isFinite, let prev = previous,
            let t0 = prev.time, let t1 = fix.time, t1 > t0, fix.coordinate.isValid
        else { return fix }
        let restated = Geodesic.shortDistance(prev.coordinate, fix.coordinate) / (t1 - t0)
        guard abs(restated - fix.speed) <= max(Self.toleranceMps, Self.toleranceShare * fix.speed) else { return fix }
        var screened = fix
        screened.speed = .nan
        return screened
    }
}
