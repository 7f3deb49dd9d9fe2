import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The clock check: the system clock against GPS time (a box without a real-time clock boots
/// with the wrong time). The only wall-clock reading near the fixes, and it decides nothing
/// about tracking.
extension TrackerService {
    /// Seconds of fix time between two checks: one clock reading per interval, not per fix.
    static let clockCheckIntervalS = 5.0

    /// Compares the system time now with the fix's GPS time (once per interval of fix time);
    /// logs `clock_offset` when the difference passes `clock_offset_warn_s` and `clock_in_line`
    /// when it is back within it, once each.
    func checkClock(_ fix: Fix) {
        guard fix.mode >= 2, let t = fix.time, abs(t - lastClockCheck) >= Self.clockCheckIntervalS else { return }
        lastClockCheck = t
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let offset = Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9 - t
        clockOffsetS = offset
        let bound = configuration.clockOffsetWarnS
        let fields: [(JournalField, String)] = [(.clockOffsetS, EventLog.number(offset.rounded(decimals: 3)))]
        if abs(offset) > bound, !clockOutOfLine {
            clockOutOfLine = true
            emit(
                LogEntry(
                    event: .clockOffset, priority: .warning,
                    message:
                        "The system clock is \(Self.seconds(offset)) \(offset > 0 ? "ahead of" : "behind") GPS time "
                        + "(more than \(Self.seconds(bound))): let gpsd set it, through chrony (see gpstrackd(8))",
                    fields: fields))
        } else if abs(offset) <= bound, clockOutOfLine {
            clockOutOfLine = false
            emit(
                LogEntry(
                    event: .clockInLine, priority: .info,
                    message: "The system clock is in line with GPS time again (\(Self.seconds(offset)) off)",
                    fields: fields))
        }
    }

    static func seconds(_ s: Double) -> String {
        abs(s) >= 10 ? "\(Int(clamping: abs(s))) s" : "\(abs(s).rounded(decimals: 1)) s"
    }
}
