import GPSTrackSim
import Testing

@testable import GPSTrackCore

/// The depths a monitor does not measure again (`FenceDepths`): each must decide as the depth
/// does (beyond the margin, on the same side) and be no deeper than the depth measured in full.
@Suite struct FenceDepthsTests {
    @Test func anUnmeasuredDepthIsABoundOnTheSameSideBeyondTheMargin() throws {
        let origin = Coordinate(latitude: 52.42, longitude: 13.25)
        let index = try FenceIndex(
            fences: FenceGenerator.fences(count: 300, origin: origin, sideM: 3000, seed: 3), file: "f")
        var memory = FenceDepths(count: index.fences.count)
        var rng = SeededRandom(seed: 11)
        var p = Geodesic.destination(from: origin, azimuth: 45, distance: 1500)
        var previous: Coordinate?
        var heading = 0.0
        var (skipped, measured, afterJump) = (0, 0, 0)
        for step in 0..<4000 {
            heading += rng.uniform(-30...30)
            p = Geodesic.destination(from: p, azimuth: heading, distance: rng.uniform(0...30))
            // Kept inside the square; once, a jump of 30 km and back, which forgets every bound.
            if Geodesic.distance(p, origin) > 4000 {
                p = Geodesic.destination(from: origin, azimuth: 45, distance: 1500)
            }
            if step == 2000 { p = Geodesic.destination(from: p, azimuth: 0, distance: 30_000) }
            if step == 2001 { p = Geodesic.destination(from: origin, azimuth: 45, distance: 1500) }
            let margin = rng.uniform(5...25)
            memory.move(from: previous, to: p)
            previous = p
            for i in index.candidates(near: p, marginM: margin) {
                let v = memory.depth(of: i, in: index, at: p, margin: margin)
                if v == index.depth(fence: i, point: p, within: 2 * margin).value {
                    measured += 1
                    continue
                }
                skipped += 1
                if step == 2001 { afterJump += 1 }
                let full = index.signedDistance(fence: i, point: p)
                #expect((v > 0) == (full > 0), "fence \(i) at step \(step): \(v) against \(full)")
                #expect(abs(v) > margin, "fence \(i) at step \(step): \(v), margin \(margin)")
                #expect(abs(v) <= abs(full) + 1e-6, "fence \(i) at step \(step): \(v) deeper than \(full)")
            }
        }
        #expect(skipped > 1000, "bounds used: \(skipped)")
        #expect(measured > 1000, "depths measured: \(measured)")
        #expect(afterJump == 0, "a bound used after the jump")
    }
}
