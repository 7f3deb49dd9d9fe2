import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A fix dated more than `uplink_max_clock_offset_s` (a day) from the system clock is not sent
/// as if it were true (a receiver's week-rollover bug dates it years away, and a server then
/// freezes the device's latest position on it): left out of the uplink, counted, and logged
/// once per spell (`uplink_fix_time_off`, warning) until a fix in line comes.
final class UplinkClockCheck: Sendable {
    let uplink: String
    let maxOffsetS: Double
    private let journal: Journal
    private let skipped = Atomic<Int>(0)
    private let inSpell = Atomic<Bool>(false)

    init(uplink: String, maxOffsetS: Double, journal: Journal) {
        self.uplink = uplink
        self.maxOffsetS = maxOffsetS
        self.journal = journal
    }

    /// Fixes left out so far.
    var skippedFixes: Int { skipped.load(ordering: .relaxed) }

    /// Whether a fix dated `t` may be sent; counts and logs one that may not.
    func plausible(_ t: Double, now: Double = Double(time(nil))) -> Bool {
        let offset = t - now
        guard abs(offset) > maxOffsetS else {
            inSpell.store(false, ordering: .relaxed)
            return true
        }
        skipped.add(1, ordering: .relaxed)
        if !inSpell.exchange(true, ordering: .relaxed) {
            journal.log(
                LogEntry(
                    event: .uplinkFixTimeOff, priority: .warning,
                    message:
                        "\(uplink): fixes dated \(Int(clamping: offset)) s from the system clock are not sent (more than \(Int(clamping: maxOffsetS, rounding: .towardZero)) s)",
                    fields: [(.uplink, uplink), (.offsetS, String(Int(clamping: offset)))]))
        }
        return false
    }
}
