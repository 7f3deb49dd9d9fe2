import GPSTrackSim
import Testing

@testable import GPSTrackCore
@testable import GPSTrackProtocol

/// Reference values from GeographicLib's GeodSolve (geographiclib-tools 2.1, WGS84):
/// `echo LAT1 LON1 LAT2 LON2 | GeodSolve -i -p 9` prints azi1 azi2 s12.
@Suite struct GeodesicTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var a: Coordinate
        var b: Coordinate
        var distance: Double
        var azimuth1: Double
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "JFK to Heathrow", a: .init(latitude: 40.6397, longitude: -73.7789),
            b: .init(latitude: 51.4700, longitude: -0.4543), distance: 5555072.557912726, azimuth1: 51.38039610644007),
        Case(
            name: "Eiffel Tower to Sydney Opera House", a: .init(latitude: 48.8584, longitude: 2.2945),
            b: .init(latitude: -33.8568, longitude: 151.2153), distance: 16960891.134302385, azimuth1: 68.12144240957544
        ),
        Case(
            name: "nearly antipodal on the equator", a: .init(latitude: 0, longitude: 0),
            b: .init(latitude: 0.5, longitude: 179.7), distance: 19944127.420750458, azimuth1: 15.55688279349054),
        Case(
            name: "exactly antipodal", a: .init(latitude: 30, longitude: 0),
            b: .init(latitude: -30, longitude: 180), distance: 20003931.458625447, azimuth1: 0),
        Case(
            name: "across the north pole", a: .init(latitude: 89.9, longitude: 0),
            b: .init(latitude: 89.9, longitude: 180), distance: 22338.795682520, azimuth1: 0),
        Case(
            name: "across the south pole", a: .init(latitude: -89.99, longitude: 45),
            b: .init(latitude: -89.99, longitude: -135), distance: 2233.879590954, azimuth1: -180),
        Case(
            name: "sub-metre hop in Berlin", a: .init(latitude: 52.52, longitude: 13.405),
            b: .init(latitude: 52.520001, longitude: 13.405001), distance: 0.130346585, azimuth1: 31.38330837241320),
        Case(
            name: "9 m hop in Tokyo", a: .init(latitude: 35.6586, longitude: 139.7454),
            b: .init(latitude: 35.6586, longitude: 139.7455), distance: 9.055069823, azimuth1: 89.99997085228625),
    ]

    @Test(arguments: cases)
    func inverseMatchesGeographicLib(_ c: Case) {
        let result = Geodesic.inverse(c.a, c.b)
        #expect(abs(result.distance - c.distance) <= max(1e-6, c.distance * 1e-12))
        #expect(abs(Geodesic.distance(c.a, c.b) - c.distance) <= max(1e-6, c.distance * 1e-12))
        // Azimuth -180 and 180 are the same direction.
        let dAz = abs((result.azimuth1 - c.azimuth1 + 540).truncatingRemainder(dividingBy: 360) - 180)
        #expect(dAz < 1e-6)
    }

    @Test func directMatchesGeographicLib() {
        // echo 52.52 13.405 45 1000 | GeodSolve -p 9
        let p = Geodesic.destination(from: .init(latitude: 52.52, longitude: 13.405), azimuth: 45, distance: 1000)
        #expect(abs(p.latitude - 52.52635399981468) < 1e-9)
        #expect(abs(p.longitude - 13.41541860534112) < 1e-9)
    }

    @Test func distanceIsSymmetricAndZeroForOnePoint() {
        let a = Coordinate(latitude: -12.5, longitude: 130.8)
        let b = Coordinate(latitude: 1.3, longitude: 103.8)
        #expect(Geodesic.distance(a, a) == 0)
        #expect(abs(Geodesic.distance(a, b) - Geodesic.distance(b, a)) < 1e-6)
    }
}

@Suite struct CloseUpperBoundTests {
    /// The bound against GeodSolve's distance of 20,000 seeded close pairs (one GeodSolve run).
    @Test(
        .enabled(
            if: GeodSolveTruth.path != nil, "needs GeodSolve (geographiclib-tools); scripts/deps.sh test installs it"))
    func neverBelowTheGeodesic() throws {
        var rng = SeededRandomLCG(seed: 1)
        var pairs: [(Coordinate, Coordinate)] = []
        for _ in 0..<20_000 {
            let a = Coordinate(latitude: rng.next(-79.9, 79.9), longitude: rng.next(-180, 180))
            var lon = a.longitude + rng.next(-0.2, 0.2)
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            let b = Coordinate(latitude: max(-79.9, min(79.9, a.latitude + rng.next(-0.05, 0.05))), longitude: lon)
            pairs.append((a, b))
        }
        let truth = try GeodSolveTruth.lengths(pairs.map { [$0.0, $0.1] })
        #expect(truth.count == pairs.count)
        for ((a, b), d) in zip(pairs, truth) {
            let bound = Geodesic.closeUpperBound(a, b)
            // GeodSolve prints to a nanometre: a bound that equals the distance may round below.
            #expect(bound >= d - 1e-6, "\(a) \(b): bound \(bound), GeodSolve \(d)")
        }
        #expect(
            Geodesic.closeUpperBound(.init(latitude: 85, longitude: 0), .init(latitude: 85, longitude: 0.001))
                == .infinity)
        #expect(
            Geodesic.closeUpperBound(.init(latitude: 10, longitude: 0), .init(latitude: 11, longitude: 0)) == .infinity)
    }

    /// With the cosine kept from pair to pair (`BandCosine`), along two seeded walks of 5,000
    /// fixes (one at 52°, one across the equator): still never below GeodSolve's distance nor
    /// 2.5 % above it, and within 0.05 % of the bound a fresh cosine gives (the band is 0.01° wide).
    @Test(
        .enabled(
            if: GeodSolveTruth.path != nil, "needs GeodSolve (geographiclib-tools); scripts/deps.sh test installs it"))
    func keptCosineStaysABoundAndTight() throws {
        var rng = SeededRandomLCG(seed: 2)
        var pairs: [(Coordinate, Coordinate)] = []
        for start in [52.0, -0.02] {
            var p = Coordinate(latitude: start, longitude: 13)
            for _ in 0..<5_000 {
                let q = Coordinate(
                    latitude: p.latitude + rng.next(-0.0003, 0.00031),
                    longitude: p.longitude + rng.next(-0.0005, 0.0005))
                pairs.append((p, q))
                p = q
            }
        }
        let truth = try GeodSolveTruth.lengths(pairs.map { [$0.0, $0.1] })
        #expect(truth.count == pairs.count)
        var band = Geodesic.BandCosine()
        var widest = 1.0
        for ((a, b), d) in zip(pairs, truth) {
            let kept = Geodesic.closeUpperBound(a, b, band: &band)
            #expect(kept >= d - 1e-6 && kept <= 1.025 * d + 1e-6, "\(a) \(b): bound \(kept), GeodSolve \(d)")
            let fresh = Geodesic.closeUpperBound(a, b)
            if fresh > 0 { widest = max(widest, kept / fresh) }
        }
        #expect(widest >= 1 && widest < 1.0005, "the kept cosine's bound over a fresh one: up to \(widest)")
    }
}

/// A tiny linear congruential generator for sampling test inputs.
struct SeededRandomLCG {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ lo: Double, _ hi: Double) -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return lo + (hi - lo) * Double(state >> 11) * 0x1.0p-53
    }
}
