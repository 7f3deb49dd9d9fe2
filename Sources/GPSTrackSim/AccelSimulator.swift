import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A simulated accelerometer recording and what truly happened in it.
public struct AccelTrace: Sendable {
    public var samples: [AccelSample]
    /// Steps truly taken.
    public var trueSteps: Int
    /// Seconds truly spent walking.
    public var walkingSeconds: Double
}

/// Where a walker carries the device.
public enum Carry: String, Sendable, CaseIterable {
    case pocket, hand, backpack
}

/// What moves a device that is not walked with.
public enum Ride: String, Sendable, CaseIterable {
    /// Mounted in a car on roads of changing roughness, with traffic-light stops.
    case car
    /// Loose in a car: the car's motion plus rattling and sliding.
    case boxInCar
    /// On a motor boat: swell, rolling and wave slams.
    case boat
    /// On a table: sensor noise and the odd bump.
    case still
}

/// Seeded accelerometer recordings: walks and runs (three carrying positions, a changing
/// orientation, noise, pauses) and rides that should count nothing.
public enum AccelSimulator {
    static let g = 9.80665

    /// A walk (or run) at `cadence` steps/min for `duration` seconds, in bouts of one to two
    /// and a half minutes with pauses of 5-20 s between them when `pauses` is set.
    public static func walk(
        cadence: Double, carry: Carry, duration: Double, seed: UInt64,
        rate: Double = 50, pauses: Bool = true
    ) -> AccelTrace {
        var rng = SeededRandom(seed: seed)
        var pose = Pose(rng: &rng)
        let sizeFactor: Double =
            switch carry {
            case .pocket: 1.0
            case .hand: 0.6
            case .backpack: 0.75
            }
        let base = 3.0 * (0.5 + 0.5 * (cadence / 100) * (cadence / 100)) * sizeFactor
        var samples: [AccelSample] = []
        samples.reserveCapacity(Int(duration * rate) + 10)
        var t = 0.0
        var steps = 0
        var walkingSeconds = 0.0
        var walkingNow = !pauses || rng.unit() < 0.5
        var boutEnd = pauses ? (walkingNow ? rng.uniform(60...150) : rng.uniform(5...20)) : duration
        var phase = 0.0
        var stepLength = 60 / cadence
        var stepIndex = 0
        var amplitude = base
        var boutStep = 0
        let bias = (rng.gaussian() * 0.1, rng.gaussian() * 0.1, rng.gaussian() * 0.1)
        let dt = 1 / rate
        while t < duration {
            var a = (0.0, 0.0, 0.0)  // world frame: east, north, up
            if walkingNow {
                phase += 2 * .pi * dt / stepLength
                if phase >= 2 * .pi {  // a step completed
                    phase -= 2 * .pi
                    steps += 1
                    walkingSeconds += stepLength
                    stepIndex += 1
                    boutStep += 1
                    stepLength = 60 / cadence * (1 + 0.03 * rng.gaussian())
                    amplitude = base * max(0.5, 1 + 0.12 * rng.gaussian()) * (boutStep == 0 ? 0.7 : 1)
                    if t >= boutEnd {
                        walkingNow = false
                        boutEnd = t + rng.uniform(5...20)
                        phase = 0
                    }
                }
                if walkingNow {
                    let stride = Double(stepIndex % 2) * .pi + phase / 2
                    var up = cos(phase) + 0.3 * cos(2 * phase + 0.5) + 0.5 * exp(-pow((phase - 0.25) / 0.2, 2))
                    var forward = 0.4 * sin(phase)
                    let side = 0.25 * sin(stride)
                    switch carry {
                    case .pocket:
                        up += 0.4 * cos(stride)
                        forward += 0.5 * sin(stride + 0.4)
                    case .hand: break
                    case .backpack: up = cos(phase - 0.3) + 0.1 * cos(2 * phase)
                    }
                    a = (side * amplitude, forward * amplitude, up * amplitude)
                }
            } else if t >= boutEnd {
                walkingNow = true
                boutEnd = t + rng.uniform(60...150)
                boutStep = -1
                phase = 0
                amplitude = base * 0.7
            } else {
                a = (0.05 * rng.gaussian(), 0.05 * rng.gaussian(), 0.05 * rng.gaussian())
            }
            let spin = carry == .hand ? 0.6 : 0.3
            pose.wander(&rng, dt: dt, sigma: spin)
            if carry == .hand && rng.unit() < dt / 20 { pose.turn(&rng, by: 1.2) }  // a look at the screen
            let noise = carry == .hand ? 0.15 : 0.05
            samples.append(pose.reading(t: t, world: a, bias: bias, noise: noise, rng: &rng))
            t += dt * (1 + 0.01 * rng.gaussian())
        }
        return AccelTrace(samples: samples, trueSteps: steps, walkingSeconds: walkingSeconds)
    }

    /// `duration` seconds of a ride (no steps at all).
    public static func ride(_ ride: Ride, duration: Double, seed: UInt64, rate: Double = 50) -> AccelTrace {
        var rng = SeededRandom(seed: seed)
        var pose = Pose(rng: &rng)
        var samples: [AccelSample] = []
        samples.reserveCapacity(Int(duration * rate) + 10)
        let dt = 1 / rate
        // Body bounce (about 1-1.5 Hz) and wheel hop (about 12 Hz): damped resonators driven by the road.
        var bounce = Resonator(hz: rng.uniform(1.0...1.6), damping: 0.3)
        var hop = Resonator(hz: 12, damping: 0.2)
        var hull = Resonator(hz: 3, damping: 0.2)
        var roughness = 0.3
        var nextRoad = 0.0
        var moving = true
        var surge = 0.0
        var surgeTarget = 0.0
        let engineHz = rng.uniform(17...23)
        let swell = (0..<3).map { _ in (rng.uniform(0.08...0.3), rng.uniform(0.3...0.7), rng.uniform(0...(2 * .pi))) }
        let bias = (rng.gaussian() * 0.1, rng.gaussian() * 0.1, rng.gaussian() * 0.1)
        var t = 0.0
        while t < duration {
            var a = (0.0, 0.0, 0.0)
            switch ride {
            case .car, .boxInCar:
                if t >= nextRoad {  // a new stretch of road, or a stop at lights
                    nextRoad = t + rng.uniform(20...120)
                    moving = rng.unit() > 0.2
                    roughness = [0.15, 0.3, 0.5][Int(rng.unit() * 3)]
                    surgeTarget = moving ? rng.uniform(-2...2) : 0
                }
                surge += (surgeTarget - surge) * dt / 3
                if rng.unit() < dt / 4 { surgeTarget = moving ? rng.uniform(-2.5...2.5) : 0 }
                let drive = moving ? roughness : 0
                var jolt = 0.0
                // A pothole.
                if moving && rng.unit() < dt / 20 { jolt = rng.uniform(0.2...0.5) * (rng.unit() < 0.5 ? -1 : 1) }
                let vertical =
                    bounce.step(bounce.whiteDrive(rms: drive, dt: dt, &rng), impulse: jolt, dt: dt)
                    + hop.step(hop.whiteDrive(rms: 0.3 * drive, dt: dt, &rng), dt: dt)
                let engine = (moving ? 0.25 : 0.12) * sin(2 * .pi * engineHz * t)
                a = (0.2 * surge * rng.unit(), surge, vertical + engine)
                if ride == .boxInCar {
                    if rng.unit() < dt / 2 {
                        a.2 += rng.uniform(1...3) * (rng.unit() < 0.5 ? -1 : 1)
                        a.0 += rng.uniform(-2...2)
                    }
                    if rng.unit() < dt / 60 { pose.turn(&rng, by: 0.8) }  // the box slides or tips
                    pose.wander(&rng, dt: dt, sigma: 0.1)
                }
            case .boat:
                var heave = 0.0
                for (hz, amp, ph) in swell { heave += amp * sin(2 * .pi * hz * t + ph) }
                let slam = rng.unit() < dt / 8 ? rng.uniform(0.1...0.3) : 0  // a wave slams the hull
                a = (
                    0.3 * heave, 0.5 * heave,
                    heave + hull.step(0, impulse: slam, dt: dt) + 0.3 * sin(2 * .pi * engineHz * t)
                )
                pose.wander(&rng, dt: dt, sigma: 0.15)
            case .still:
                if rng.unit() < dt / 300 { a.2 += rng.uniform(1...4) }  // the table is bumped
            }
            samples.append(pose.reading(t: t, world: a, bias: bias, noise: 0.03, rng: &rng))
            t += dt * (1 + 0.01 * rng.gaussian())
        }
        return AccelTrace(samples: samples, trueSteps: 0, walkingSeconds: 0)
    }

    /// Writes a trace as `replay-accel` CSV (`t,x,y,z` with a header).
    public static func csv(_ trace: AccelTrace, startTime: Double = 0) -> String {
        csv(trace.samples, startTime: startTime)
    }

    /// Writes samples as `replay-accel` CSV (`t,x,y,z` with a header).
    public static func csv(_ samples: [AccelSample], startTime: Double = 0) -> String {
        var out = "t,x,y,z\n"
        for s in samples {
            out += "\(fmt(s.t + startTime, 4)),\(fmt(s.x, 4)),\(fmt(s.y, 4)),\(fmt(s.z, 4))\n"
        }
        return out
    }

    private static func fmt(_ v: Double, _ decimals: Int) -> String {
        let p = pow(10, Double(decimals))
        return "\((v * p).rounded() / p)"
    }
}

/// A damped second-order resonator (a car body on its springs, a hull) excited through its base;
/// its output is the acceleration of the mass.
struct Resonator {
    var omega: Double
    var damping: Double
    var x = 0.0, v = 0.0

    init(hz: Double, damping: Double) {
        omega = 2 * .pi * hz
        self.damping = damping
    }

    /// The excitation, per sample of `dt`, that makes the output's RMS about `rms` under white noise.
    func whiteDrive(rms: Double, dt: Double, _ rng: inout SeededRandom) -> Double {
        rms / (omega * (damping + 1 / (4 * damping))).squareRoot() * rng.gaussian() / dt.squareRoot()
    }

    /// Advances by `dt` under `force` (a jolt of `impulse` m/s besides); returns the acceleration.
    mutating func step(_ force: Double, impulse: Double = 0, dt: Double) -> Double {
        let restoring = -2 * damping * omega * v - omega * omega * x
        v += (force + restoring) * dt + impulse
        x += v * dt
        return restoring
    }
}

/// The device's orientation (a unit quaternion from world to device), slowly wandering.
struct Pose {
    var q: (Double, Double, Double, Double)

    init(rng: inout SeededRandom) {
        // A uniformly random orientation (Shoemake).
        let u1 = rng.unit()
        let u2 = rng.unit() * 2 * .pi
        let u3 = rng.unit() * 2 * .pi
        q = (
            (1 - u1).squareRoot() * sin(u2), (1 - u1).squareRoot() * cos(u2), u1.squareRoot() * sin(u3),
            u1.squareRoot() * cos(u3)
        )
    }

    /// Turns by a random small rotation of angular speed about `sigma` rad/s.
    mutating func wander(_ rng: inout SeededRandom, dt: Double, sigma: Double) {
        rotate(by: (sigma * rng.gaussian() * dt, sigma * rng.gaussian() * dt, sigma * rng.gaussian() * dt))
    }

    /// Turns by a random rotation of about `angle` radians.
    mutating func turn(_ rng: inout SeededRandom, by angle: Double) {
        let axis = (rng.gaussian(), rng.gaussian(), rng.gaussian())
        let n = max(1e-9, (axis.0 * axis.0 + axis.1 * axis.1 + axis.2 * axis.2).squareRoot())
        rotate(by: (axis.0 / n * angle, axis.1 / n * angle, axis.2 / n * angle))
    }

    private mutating func rotate(by w: (Double, Double, Double)) {
        let angle = (w.0 * w.0 + w.1 * w.1 + w.2 * w.2).squareRoot()
        guard angle > 0 else { return }
        let s = sin(angle / 2) / angle
        let r = (cos(angle / 2), w.0 * s, w.1 * s, w.2 * s)
        let (a, b, c, d) = q
        q = (
            r.0 * a - r.1 * b - r.2 * c - r.3 * d, r.0 * b + r.1 * a + r.2 * d - r.3 * c,
            r.0 * c - r.1 * d + r.2 * a + r.3 * b, r.0 * d + r.1 * c - r.2 * b + r.3 * a
        )
        let n = (q.0 * q.0 + q.1 * q.1 + q.2 * q.2 + q.3 * q.3).squareRoot()
        q = (q.0 / n, q.1 / n, q.2 / n, q.3 / n)
    }

    /// What the accelerometer reads: gravity's reaction plus `world` acceleration, in the
    /// device's axes, with a bias and white noise.
    func reading(
        t: Double, world a: (Double, Double, Double), bias: (Double, Double, Double), noise: Double,
        rng: inout SeededRandom
    ) -> AccelSample {
        let f = (a.0, a.1, a.2 + AccelSimulator.g)
        let (w, x, y, z) = q
        // v' = q* v q: the world vector in device coordinates.
        let r00 = 1 - 2 * (y * y + z * z)
        let r01 = 2 * (x * y + w * z)
        let r02 = 2 * (x * z - w * y)
        let r10 = 2 * (x * y - w * z)
        let r11 = 1 - 2 * (x * x + z * z)
        let r12 = 2 * (y * z + w * x)
        let r20 = 2 * (x * z + w * y)
        let r21 = 2 * (y * z - w * x)
        let r22 = 1 - 2 * (x * x + y * y)
        return AccelSample(
            t: t,
            x: r00 * f.0 + r01 * f.1 + r02 * f.2 + bias.0 + noise * rng.gaussian(),
            y: r10 * f.0 + r11 * f.1 + r12 * f.2 + bias.1 + noise * rng.gaussian(),
            z: r20 * f.0 + r21 * f.1 + r22 * f.2 + bias.2 + noise * rng.gaussian())
    }
}
