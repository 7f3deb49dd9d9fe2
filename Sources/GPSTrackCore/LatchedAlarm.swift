/// The one rule of every latched alarm (the guard's breach and its no-position alarm, the
/// anchor's drag and its no-position alarm; gpstrackd(8), LATCHED ALARMS): raised once, said
/// again every `repeatS` of fix time until acknowledged, quiet after; a repeat carries where
/// the vehicle or boat last was; stored as four numbers, so a restart, a SIGKILL or a power
/// cut finds it as it was, repeats and all.
public struct LatchedAlarm: Sendable, Equatable {
    public var raisedAt: Double
    public var lastSaidAt: Double
    /// Repeats said so far (the raise is 0).
    public var repeats = 0
    public var acknowledged = false

    public init(raisedAt: Double) {
        self.raisedAt = raisedAt
        lastSaidAt = raisedAt
    }

    /// Counts a repeat when one is due at `now` and returns its number (1, 2, ...); nil when
    /// acknowledged or not yet due.
    public mutating func repeatDue(now: Double, every repeatS: Double) -> Int? {
        guard !acknowledged, now - lastSaidAt >= repeatS else { return nil }
        repeats += 1
        lastSaidAt = now
        return repeats
    }

    /// Acknowledges it; false when it already was (nothing to say).
    public mutating func acknowledge() -> Bool {
        guard !acknowledged else { return false }
        acknowledged = true
        return true
    }

    /// `raised,last said,repeats,acknowledged` for the state database.
    public var encoded: String { "\(raisedAt),\(lastSaidAt),\(repeats),\(acknowledged ? 1 : 0)" }

    /// Reads back `encoded` from the first four of `fields`; nil when they are not one.
    public init?(fields: ArraySlice<Double>) {
        guard fields.count >= 4 else { return nil }
        let v = Array(fields.prefix(4))
        guard v.allSatisfy(\.isFinite), v[2] >= 0, v[2] < 1e9 else { return nil }
        self.init(raisedAt: v[0])
        lastSaidAt = v[1]
        repeats = Int(clamping: v[2], rounding: .towardZero)
        acknowledged = v[3] == 1
    }
}
