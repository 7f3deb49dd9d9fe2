/// The trip detector's state as text, so that a restarted daemon carries on an open trip or
/// stop where it was (no trip lost, split or doubled). One `key=value` per line; numbers in
/// Swift's shortest round-tripping form.
extension TripDetector {
    /// The state to store.
    public func encodedState() -> String {
        var lines = [
            "v=1", "next=\(nextTripID)", "ended=\(tripsEnded)", "ended_m=\(endedTraveledM)",
            "anchor=\(anchorPending ? 1 : 0)", "moves=\(shortMoves)", "moved_m=\(movedM)", "line=" + line.encoded,
        ]
        if let leg { lines.append("leg=" + Self.encode(leg)) }
        if let c = cluster {
            lines.append(
                "cluster="
                    + [c.firstTime, c.origin.latitude, c.origin.longitude, c.dLat, c.dLon, Double(c.count)]
                    .map { "\($0)" }.joined(separator: ","))
            lines.append("cluster_leg=" + Self.encode(c.legAtStart))
        }
        if let s = stay {
            let f = s.figures
            lines.append(
                "stay="
                    + [
                        f.arrival, f.departure ?? .nan, f.at.latitude, f.at.longitude, Double(f.afterTrip ?? 0),
                        s.lastIn,
                    ]
                    .map { "\($0)" }.joined(separator: ","))
            let step = max(1, s.samples.count / 256)
            lines.append(
                "stay_samples="
                    + stride(from: 0, to: s.samples.count, by: step)
                    .map { "\(s.samples[$0].latitude),\(s.samples[$0].longitude)" }.joined(separator: ";"))
        }
        if let l = lastSample { lines.append("last=\(l.time),\(l.at.latitude),\(l.at.longitude),\(l.speed)") }
        // The fixes the open cluster, or the next departure's backdating, still needs.
        let keepFrom = min(cluster?.firstTime ?? .infinity, (lastSample?.time ?? 0) - 120)
        let kept = recent.filter { $0.time >= keepFrom }
        lines.append(
            "recent="
                + kept.map { "\($0.time),\($0.at.latitude),\($0.at.longitude),\($0.speed)" }.joined(separator: ";"))
        return lines.joined(separator: "\n")
    }

    /// A detector carrying on from `state`; nil when the text is not a state this code wrote.
    public init?(config: TrackerConfig, state: String) {
        var fields: [String: String] = [:]
        for line in state.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { return nil }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        guard fields["v"] == "1", let next = fields["next"].flatMap({ Int($0) }),
            let ended = fields["ended"].flatMap({ Int($0) }),
            let endedM = fields["ended_m"].flatMap({ Double($0) })
        else { return nil }
        self.init(config: config, nextTripID: next)
        tripsEnded = ended
        endedTraveledM = endedM
        anchorPending = fields["anchor"] == "1"
        // Written since short moves count (absent from older states: none then).
        shortMoves = fields["moves"].flatMap { Int($0) } ?? 0
        movedM = fields["moved_m"].flatMap { Double($0) } ?? 0
        if let text = fields["line"], let l = StraightLine(encoded: text) { line = l }
        func numbers(_ s: Substring) -> [Double] { s.split(separator: ",").compactMap { Double($0) } }
        recent = (fields["recent"] ?? "").split(separator: ";").compactMap { item in
            let v = numbers(item)
            return v.count == 4 ? Sample(time: v[0], at: Coordinate(latitude: v[1], longitude: v[2]), speed: v[3]) : nil
        }
        recentBase = 0
        if let s = fields["last"] {
            let v = numbers(Substring(s))
            if v.count == 4 {
                lastSample = Sample(time: v[0], at: Coordinate(latitude: v[1], longitude: v[2]), speed: v[3])
            }
        }
        if let s = fields["leg"] { leg = Self.decodeLeg(s) }
        if let s = fields["cluster"], let legText = fields["cluster_leg"], let atStart = Self.decodeLeg(legText) {
            let v = numbers(Substring(s))
            if v.count == 6 {
                let first = recent.firstIndex { $0.time >= v[0] } ?? 0
                cluster = Cluster(
                    firstIndex: first, firstTime: v[0], origin: Coordinate(latitude: v[1], longitude: v[2]),
                    dLat: v[3], dLon: v[4], count: Int(checking: v[5], rounding: .towardZero) ?? 0, legAtStart: atStart)
            }
        }
        if let s = fields["stay"] {
            let v = numbers(Substring(s))
            guard v.count == 6 else { return nil }
            let at = Coordinate(latitude: v[2], longitude: v[3])
            let samples = (fields["stay_samples"] ?? "").split(separator: ";").compactMap { item -> Coordinate? in
                let p = numbers(item)
                return p.count == 2 ? Coordinate(latitude: p[0], longitude: p[1]) : nil
            }
            var stay = Stay(
                figures: StopFigures(
                    arrival: v[0], departure: v[1].isNaN ? nil : v[1], at: at,
                    afterTrip: v[4] == 0 ? nil : Int(checking: v[4], rounding: .towardZero)),
                samples: samples.isEmpty ? [at] : samples, lastIn: v[5])
            stay.figures.at = at
            self.stay = stay
        }
    }

    private static func encode(_ l: Leg) -> String {
        [
            l.departure, l.origin.latitude, l.origin.longitude, l.last.latitude, l.last.longitude, l.traveledM,
            l.movingS,
            l.maxSpeed, l.lastDeliveryTime, Double(l.id ?? 0), l.fromStop ? 1 : 0,
        ].map { "\($0)" }.joined(separator: ",")
    }

    private static func decodeLeg(_ s: String) -> Leg? {
        let v = s.split(separator: ",").compactMap { Double($0) }
        guard v.count == 11 else { return nil }
        var l = Leg(
            departure: v[0], origin: Coordinate(latitude: v[1], longitude: v[2]),
            last: Coordinate(latitude: v[3], longitude: v[4]), lastDeliveryTime: v[8], fromStop: v[10] == 1,
            startIndex: -1)
        l.traveledM = v[5]
        l.movingS = v[6]
        l.maxSpeed = v[7]
        l.id = v[9] == 0 ? nil : Int(checking: v[9], rounding: .towardZero)
        return l
    }
}
