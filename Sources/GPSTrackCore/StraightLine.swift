/// The straight line of a way: always the geodesic between two places it names, `from` and
/// `to`, which the summary and `status` print as the way's start and end, and never more than
/// the way's traveled distance.
///
/// `to` is the position the odometer counted last; `from` is where the way began, settled (a
/// receiver that stood first is taken from where it settled). A move the odometer does not
/// count as travel (an uncounted discontinuity, a receiver switch, a gap, a stop's place
/// re-estimated) carries `from` along with `to`, keeping the line's length and direction, so
/// the line stays the geodesic between the two places and within the traveled distance: each
/// counted hop lengthens it by at most the hop. Without such a move, `from` is where the way
/// began.
public struct StraightLine: Sendable, Equatable {
    /// Where the way began (carried along by the moves that were no travel), and the position
    /// the odometer counted last; nil before the first position.
    public private(set) var from: Coordinate?
    public private(set) var to: Coordinate?
    /// Whether the odometer counted anything since the open stretch began.
    public private(set) var moved = false
    /// Whether a stretch is open: false after a gap, until the next position.
    private var open = false
    /// `from` and `to` when the open stretch began, for `restart`.
    private var began: (from: Coordinate, to: Coordinate)?

    public init() {}

    /// A straight line carried on from stored figures: `lengthM` between `from`'s direction
    /// and `to` (a stored line from before the stretches were joined, whose length was more
    /// than the geodesic between its ends, keeps its length).
    init(lengthM: Double, from: Coordinate?, to: Coordinate?, moved: Bool) {
        self.moved = moved
        guard let from, let to else {
            self.from = from ?? to
            self.to = to ?? from
            open = self.from != nil
            began = self.from.map { ($0, $0) }
            return
        }
        let d = Geodesic.distance(from, to)
        if lengthM > d + 0.001 {
            let azimuth = d > 0 ? Geodesic.inverse(to, from).azimuth1 : 0
            self.from = Geodesic.destination(from: to, azimuth: azimuth, distance: lengthM)
        } else {
            self.from = from
        }
        self.to = to
        open = true
        began = (self.from!, to)
    }

    /// Metres: the geodesic between `from` and `to`.
    public var valueM: Double {
        guard let from, let to else { return 0 }
        return Geodesic.distance(from, to)
    }

    /// The way begins (or goes on after a gap) at `p`: a new stretch starts there unless one is
    /// open.
    mutating func begin(at p: Coordinate) {
        guard !open else { return }
        startStretch(at: p)
    }

    /// The odometer counted the way to `p`.
    mutating func reach(_ p: Coordinate) {
        guard open else {
            startStretch(at: p)
            return
        }
        to = p
        // The first delivery (a hop of 0 to where the stretch begins) is no movement.
        if p != began?.to { moved = true }
    }

    /// The open stretch turns out to begin at `p` (where a receiver that stood from the start
    /// settled): unless `dropping` what was counted in it (wander, dropped from the odometer
    /// too), only when nothing was. The line is as it was when the stretch began, carried to `p`.
    mutating func restart(at p: Coordinate, dropping: Bool) {
        guard dropping || !moved, let b = began else { return }
        (from, to) = (b.from, b.to)
        carry(to: p)
        moved = false
        began = (from!, p)
    }

    /// The position counted last is re-estimated to `p` (a stop's settled place, as its fixes
    /// come): no travel, so `from` is carried along to keep the straight line.
    mutating func move(to p: Coordinate) {
        carry(to: p)
    }

    /// An uncounted jump to `p`: no travel; a new stretch starts there.
    mutating func jump(to p: Coordinate) {
        startStretch(at: p)
        open = true
    }

    /// The open stretch ends (a gap: the next one starts at the next fix).
    mutating func close() {
        open = false
    }

    /// Begins a stretch at `p`: the first position, or `from` carried there from `to`.
    private mutating func startStretch(at p: Coordinate) {
        if from == nil {
            (from, to) = (p, p)
        } else {
            carry(to: p)
        }
        open = true
        moved = false
        began = (from!, p)
    }

    /// `to` becomes `p` with no travel: `from` moves with it, the line's length and direction
    /// kept.
    private mutating func carry(to p: Coordinate) {
        guard let from, let to, to != p else {
            if self.from == nil { (self.from, self.to) = (p, p) }
            return
        }
        let kept = Geodesic.distance(from, to)
        let azimuth = kept > 0 ? Geodesic.inverse(to, from).azimuth1 : 0
        self.from = kept > 0 ? Geodesic.destination(from: p, azimuth: azimuth, distance: kept) : p
        self.to = p
    }

    public static func == (a: StraightLine, b: StraightLine) -> Bool {
        a.from == b.from && a.to == b.to && a.moved == b.moved && a.open == b.open && a.began?.from == b.began?.from
            && a.began?.to == b.began?.to
    }

    /// As text, to store: `0,fromLat,fromLon,toLat,toLon,moved,open,beganFromLat,beganFromLon,
    /// beganToLat,beganToLon` (the first field was the closed stretches' metres, always 0 now).
    var encoded: String {
        var v: [Double] = [
            0, from?.latitude ?? .nan, from?.longitude ?? .nan, to?.latitude ?? .nan, to?.longitude ?? .nan,
            moved ? 1 : 0, open ? 1 : 0,
        ]
        v += [began?.from.latitude, began?.from.longitude, began?.to.latitude, began?.to.longitude].map { $0 ?? .nan }
        return v.map { "\($0)" }.joined(separator: ",")
    }

    /// From stored text; a line of an earlier build (six fields: its closed stretches' metres
    /// first) keeps its length with `from` carried out along its direction.
    init?(encoded: String) {
        let v = encoded.split(separator: ",").compactMap { Double($0) }
        guard v.count == 6 || v.count == 11, v[0].isFinite, v[0] >= 0 else { return nil }
        func point(_ i: Int) -> Coordinate? {
            v[i].isNaN || v[i + 1].isNaN ? nil : Coordinate(latitude: v[i], longitude: v[i + 1])
        }
        let from = point(1)
        let to = point(3)
        guard v.count == 11 else {
            let open = from.flatMap { f in to.map { Geodesic.distance(f, $0) } } ?? 0
            self.init(lengthM: v[0] + open, from: from, to: to, moved: v[5] == 1)
            self.open = from != nil
            return
        }
        self.init()
        (self.from, self.to, moved, open) = (from, to, v[5] == 1, v[6] == 1)
        if let f = point(7), let t = point(9) { began = (f, t) }
    }
}
