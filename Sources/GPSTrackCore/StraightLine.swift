/// The straight line of a way, kept so that it never exceeds the way's traveled distance: a
/// jump the odometer does not count (an uncounted discontinuity, a gap that ends a trip) ends
/// a *stretch*, and the straight line is the sum of the stretches' straight lines. Without
/// such a jump it is the plain geodesic from the start to the position counted last.
public struct StraightLine: Sendable, Equatable {
    /// The straight lines of the stretches closed so far, metres.
    public private(set) var closedM = 0.0
    /// Where the open stretch began, and the position the odometer counted last in it.
    public private(set) var from: Coordinate?
    public private(set) var to: Coordinate?
    /// Whether the odometer counted anything in the open stretch.
    public private(set) var moved = false

    public init() {}

    /// A straight line carried on from stored figures (the stretch goes on from `to`).
    init(closedM: Double, from: Coordinate?, to: Coordinate?, moved: Bool) {
        self.closedM = closedM
        self.from = from
        self.to = to
        self.moved = moved
    }

    /// Metres.
    public var valueM: Double {
        guard let from, let to else { return closedM }
        return closedM + Geodesic.distance(from, to)
    }

    /// The way begins (or goes on) at `p`: a new stretch starts there unless one is open.
    mutating func begin(at p: Coordinate) {
        guard from == nil else { return }
        from = p
        to = p
    }

    /// The odometer counted the way to `p`.
    mutating func reach(_ p: Coordinate) {
        guard let from else {
            from = p
            to = p
            return
        }
        to = p
        // The first delivery (a hop of 0 to where the way begins) is no movement.
        if p != from { moved = true }
    }

    /// The open stretch turns out to begin at `p` (where a receiver that stood from the start
    /// settled): unless `dropping` what was counted in it (wander, dropped from the odometer
    /// too), only when nothing was.
    mutating func restart(at p: Coordinate, dropping: Bool) {
        guard dropping || !moved else { return }
        moved = false
        from = p
        to = p
    }

    /// The position counted last is re-estimated to `p` (a stop's settled place, as its fixes
    /// come): no travel, so the open stretch's start moves along to keep its straight line.
    mutating func move(to p: Coordinate) {
        guard let from, let to, to != p else { return }
        let kept = Geodesic.distance(from, to)
        let azimuth = Geodesic.distance(p, from) > 0 ? Geodesic.inverse(p, from).azimuth1 : 0
        self.from = kept > 0 ? Geodesic.destination(from: p, azimuth: azimuth, distance: kept) : p
        self.to = p
    }

    /// An uncounted jump to `p`: the open stretch ends where it was, a new one starts at `p`.
    mutating func jump(to p: Coordinate) {
        close()
        from = p
        to = p
    }

    /// The open stretch ends (a gap: the next one starts at the next fix).
    mutating func close() {
        closedM = valueM
        from = nil
        to = nil
        moved = false
    }

    /// As text, to store: `closed,fromLat,fromLon,toLat,toLon,moved`.
    var encoded: String {
        let v: [Double] = [
            closedM, from?.latitude ?? .nan, from?.longitude ?? .nan, to?.latitude ?? .nan,
            to?.longitude ?? .nan, moved ? 1 : 0,
        ]
        return v.map { "\($0)" }.joined(separator: ",")
    }

    init?(encoded: String) {
        let v = encoded.split(separator: ",").compactMap { Double($0) }
        guard v.count == 6, v[0].isFinite else { return nil }
        closedM = v[0]
        from = v[1].isNaN ? nil : Coordinate(latitude: v[1], longitude: v[2])
        to = v[3].isNaN ? nil : Coordinate(latitude: v[3], longitude: v[4])
        moved = v[5] == 1
    }
}
