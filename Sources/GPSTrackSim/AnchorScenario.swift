import Foundation
import GPSTrackCore

/// A boat at anchor, seeded: it swings on its rode through wind shifts, then (optionally) the
/// anchor drags downwind at a steady speed. The receiver errs as real ones do: a wander with a
/// two-minute memory (most of its error) plus white noise, and optionally multipath jumps of
/// one to three fixes with an ordinary-looking error estimate.
public struct AnchorScenario: Sendable {
    /// The receiver's error per axis (σ, metres): 0.8 of it a wander, 0.6 of it white noise.
    public var errorM: Double
    /// Seconds swinging before the drag (the whole run when `dragMps` is 0).
    public var swingS: Int
    /// Seconds dragging at `dragMps`, downwind.
    public var dragS = 0
    public var dragMps = 0.0
    /// Multipath jumps per hour (each 1-3 fixes, 30-150 m off).
    public var jumpsPerHour = 0
    /// The reported eph: twice the error (an honest 95 % figure), or gpsd's usual 20-30 m from
    /// the HDOP, whatever the receiver's true error.
    public var gpsdEph = false
    /// The rode's horizontal scope: 35 m of rode from a bow 6 m above the bottom.
    public var scopeM = (35.0 * 35.0 - 6.0 * 6.0).squareRoot()

    public init(errorM: Double, swingS: Int) {
        self.errorM = errorM
        self.swingS = swingS
    }

    public struct Recording: Sendable {
        public var fixes: [(time: Double, at: Coordinate, eph: Double)] = []
        /// The boat's true position at each fix.
        public var truth: [Coordinate] = []
        /// The fix time the drag begins at (the end of the run without one).
        public var dragStart = 0.0
    }

    /// 1 Hz fixes from `t0`, the anchor at `anchor`.
    public func record(anchor: Coordinate, t0: Double, seed: UInt64) -> Recording {
        var rng = SeededRandom(seed: seed)
        var r = Recording()
        var wind = rng.uniform(0...360)
        var target = wind
        var bias = (e: 0.0, n: 0.0)
        let decay = exp(-1.0 / 120)
        let kick = 0.8 * errorM * (1 - decay * decay).squareRoot()
        bias = (0.8 * errorM * rng.gaussian(), 0.8 * errorM * rng.gaussian())
        var jumpLeft = 0
        var jump = (e: 0.0, n: 0.0)
        var dragged = anchor
        let total = swingS + dragS
        for k in 0..<total {
            let t = Double(k)
            // The wind shifts by 60-100° every 20 minutes or so, and once by 150°, over minutes.
            if k % 1200 == 600 { target += (rng.uniform(0...1) < 0.5 ? -1 : 1) * rng.uniform(60...100) }
            if k % 3600 == 1500 { target += 150 }
            wind += max(-0.8, min(0.8, target - wind))
            // It sails at anchor: ±30° about downwind over four minutes; the rode's sag shortens
            // its reach in the lulls.
            let bearing = wind + 180 + 30 * sin(2 * .pi * t / 240)
            let reach = scopeM * (0.92 + 0.08 * sin(2 * .pi * t / 97))
            if k >= swingS { dragged = Geodesic.destination(from: dragged, azimuth: wind + 180, distance: dragMps) }
            let boat = Geodesic.destination(from: dragged, azimuth: bearing, distance: reach)
            bias.e = decay * bias.e + kick * rng.gaussian()
            bias.n = decay * bias.n + kick * rng.gaussian()
            var e = bias.e + 0.6 * errorM * rng.gaussian()
            var n = bias.n + 0.6 * errorM * rng.gaussian()
            if jumpLeft == 0, jumpsPerHour > 0, rng.unit() < Double(jumpsPerHour) / 3600 {
                jumpLeft = Int(rng.uniform(1...3.99))
                let off = rng.uniform(30...150)
                let dir = rng.uniform(0...(2 * .pi))
                jump = (off * sin(dir), off * cos(dir))
            }
            if jumpLeft > 0 {
                e += jump.e
                n += jump.n
                jumpLeft -= 1
            }
            var seen = Geodesic.destination(from: boat, azimuth: 90, distance: e)
            seen = Geodesic.destination(from: seen, azimuth: 0, distance: n)
            let eph = gpsdEph ? rng.uniform(20...30) : 2 * errorM * rng.uniform(0.9...1.1)
            r.fixes.append((t0 + t, seen, eph))
            r.truth.append(boat)
        }
        r.dragStart = t0 + Double(swingS)
        return r
    }
}
