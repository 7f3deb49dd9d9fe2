/// Merges the several TPVs gpsd 3.22 emits for one epoch (one per sentence as it arrives, the
/// first often 2D without error estimates) into one fix, so that no epoch is counted twice.
/// Of the TPVs with the same time it keeps the most complete one, the later one on a tie.
public struct EpochAssembler: Sendable {
    private var pending: Fix?

    public init() {}

    /// Adds one TPV; returns the fixes whose epoch is complete, in order.
    public mutating func add(_ fix: Fix) -> [Fix] {
        var done: [Fix] = []
        add(fix, into: &done)
        return done
    }

    /// Adds one TPV; appends the fixes whose epoch is complete to `done`, in order (the
    /// per-fix path: the caller's buffer, reused, instead of an array a fix).
    public mutating func add(_ fix: Fix, into done: inout [Fix]) {
        guard let time = fix.time else {
            // No time: it cannot belong to an epoch; pass it on (the tracker rejects it).
            if let pending { done.append(pending) }
            pending = nil
            done.append(fix)
            return
        }
        if let current = pending, current.time == time {
            if fix.completeness >= current.completeness { pending = fix }
            return
        }
        if let pending { done.append(pending) }
        pending = fix
    }

    /// Returns the pending epoch, if any (at the end of a log, or when the stream stalls).
    public mutating func flush() -> [Fix] {
        defer { pending = nil }
        return pending.map { [$0] } ?? []
    }
}
