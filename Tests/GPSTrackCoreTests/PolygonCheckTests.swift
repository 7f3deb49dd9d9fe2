import CGEOS
import GPSTrackSim
import Testing

@testable import GPSTrackCore

#if canImport(Glibc)
import Glibc
#endif

/// `PolygonCheck` may doubt, never err: its "valid" is never where GEOS says invalid. Random
/// small polygons, simple, self-intersecting, touching and near-degenerate, each judged by both.
@Suite struct PolygonCheckTests {
    typealias P = (Double, Double)

    static func coordinates(_ ring: [P]) -> [Coordinate] { ring.map { Coordinate(latitude: $0.1, longitude: $0.0) } }

    /// A star-shaped ring (simple: vertices by increasing angle) of `n` vertices about `c`.
    static func star(_ rng: inout SeededRandom, n: Int, c: P, size: Double) -> [P] {
        let angles = (0..<n).map { _ in Double.random(in: 0..<(2 * .pi), using: &rng) }.sorted()
        let ring = angles.map { a in
            let r = size * Double.random(in: 0.3...1, using: &rng)
            return (c.0 + r * cos(a), c.1 + r * sin(a))
        }
        return ring + [ring[0]]
    }

    /// Both verdicts over `cases`; fails on any polygon we call valid and GEOS does not.
    static func judge(_ cases: [[[P]]], _ geos: FenceIndexWithoutGEOSTests.GEOS) -> (ours: Int, theirs: Int) {
        var ours = 0
        var theirs = 0
        for rings in cases {
            let mine = PolygonCheck.provesValid(rings.map(coordinates))
            let reference = geos.isValid(rings)
            if mine { ours += 1 }
            if reference { theirs += 1 }
            #expect(!mine || reference, "we call valid what GEOS does not: \(rings)")
        }
        return (ours, theirs)
    }

    static func center(_ rng: inout SeededRandom) -> P {
        (Double.random(in: -179...179, using: &rng), Double.random(in: -80...80, using: &rng))
    }

    @Test func simpleStarsAreProvedValidAsGEOSFindsThem() throws {
        let geos = try FenceIndexWithoutGEOSTests.GEOS()
        var rng = SeededRandom(seed: 1)
        let cases = (0..<400).map { i in
            [Self.star(&rng, n: 3 + i % 61, c: Self.center(&rng), size: [1e-4, 0.01, 1][i % 3])]
        }
        let (ours, theirs) = Self.judge(cases, geos)
        // Not a check that doubts everything: nearly every simple star is proved valid.
        #expect(theirs > 380 && ours > theirs * 9 / 10, "ours \(ours), GEOS \(theirs)")
    }

    @Test func scrambledRingsAreNeverProvedValidWhereGEOSRefusesThem() throws {
        let geos = try FenceIndexWithoutGEOSTests.GEOS()
        var rng = SeededRandom(seed: 2)
        let cases: [[[P]]] = (0..<600).map { i in
            var ring = Array(Self.star(&rng, n: 4 + i % 20, c: Self.center(&rng), size: 0.01).dropLast())
            // A few swaps: mostly self-intersecting, some still simple.
            for _ in 0..<(1 + i % 3) { ring.swapAt(Int.random(in: ring.indices, using: &rng), 0) }
            return [ring + [ring[0]]]
        }
        let (_, theirs) = Self.judge(cases, geos)
        #expect(theirs < 450, "most scrambled rings are invalid: GEOS \(theirs) of 600 valid")
    }

    /// A vertex moved onto, or within rounding of, another edge or its neighbours' line; a
    /// repeated vertex; a spike back along the last edge.
    @Test func touchingAndNearDegenerateRingsAreNeverProvedValidWhereGEOSRefusesThem() throws {
        let geos = try FenceIndexWithoutGEOSTests.GEOS()
        var rng = SeededRandom(seed: 3)
        var cases: [[[P]]] = []
        for i in 0..<600 {
            var ring = Array(Self.star(&rng, n: 5 + i % 30, c: Self.center(&rng), size: 0.01).dropLast())
            let n = ring.count
            let k = Int.random(in: 0..<n, using: &rng)
            let eps = [0, 1e-15, -1e-15, 1e-12, 1e-10][i % 5]
            switch i % 4 {
            case 0:  // onto a non-adjacent edge's midpoint
                let j = (k + 2 + Int.random(in: 0..<max(1, n - 3), using: &rng)) % n
                let a = ring[j]
                let b = ring[(j + 1) % n]
                if j != k, (j + 1) % n != k { ring[k] = ((a.0 + b.0) / 2 + eps, (a.1 + b.1) / 2 - eps) }
            case 1:  // onto its neighbours' line
                let a = ring[(k + n - 1) % n]
                let b = ring[(k + 1) % n]
                let t = Double.random(in: 0.1...0.9, using: &rng)
                ring[k] = (a.0 + t * (b.0 - a.0) + eps, a.1 + t * (b.1 - a.1))
            case 2:  // a repeated vertex
                ring.insert(ring[k], at: k)
            default:  // a spike back along the edge before
                let a = ring[(k + n - 1) % n]
                ring.insert((a.0 + (ring[k].0 - a.0) / 2, a.1 + (ring[k].1 - a.1) / 2 + eps), at: (k + 1) % n)
            }
            cases.append([ring + [ring[0]]])
        }
        let (ours, theirs) = Self.judge(cases, geos)
        #expect(theirs > 0 && ours < 600, "ours \(ours), GEOS \(theirs)")
    }

    @Test func holesInsideApartOrNotAreJudgedAsGEOSJudgesThem() throws {
        let geos = try FenceIndexWithoutGEOSTests.GEOS()
        var rng = SeededRandom(seed: 4)
        var cases: [[[P]]] = []
        for i in 0..<400 {
            let c = Self.center(&rng)
            let shell = Self.star(&rng, n: 8 + i % 20, c: c, size: 0.01)
            let offsets: [P] = [(0, 0), (0.004, 0), (0.009, 0), (0.02, 0)]
            let o = offsets[i % 4]
            let hole = Self.star(&rng, n: 4 + i % 10, c: (c.0 + o.0, c.1 + o.1), size: 0.002)
            var rings = [shell, hole]
            if i % 5 == 0 {
                // A second hole, overlapping the first or not.
                rings.append(Self.star(&rng, n: 4, c: (c.0 + o.0 + [0.001, 0.003][i % 2], c.1), size: 0.001))
            }
            cases.append(rings)
        }
        let (ours, theirs) = Self.judge(cases, geos)
        #expect(theirs > 50 && ours > 50 && theirs < 400, "ours \(ours), GEOS \(theirs)")
    }

    @Test func aSquareIsValidABowTieAndAnOpenRingAreNot() {
        let square: [P] = [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]
        #expect(PolygonCheck.provesValid([Self.coordinates(square)]))
        let bowTie: [P] = [(0, 0), (1, 1), (1, 0), (0, 1), (0, 0)]
        #expect(!PolygonCheck.provesValid([Self.coordinates(bowTie)]))
        #expect(!PolygonCheck.provesValid([Self.coordinates(Array(square.dropLast()))]))
        // A corner turning by 1e-13 of its size: doubtful.
        let flat: [P] = [(0, 0), (1, 0), (2, 1e-13), (1, 1), (0, 0)]
        #expect(!PolygonCheck.provesValid([Self.coordinates(flat)]))
    }
}
