/// Why a fix was not accepted. The raw value is the name used in summaries and the journal.
public enum RejectReason: String, Sendable, CaseIterable, Comparable {
    /// Mode below 2D (no fix), or not a mode gpsd defines.
    case noFix = "no_fix"
    /// No usable time stamp (missing, before 1999-08-22 or from 2100 on).
    case noTime = "no_time"
    /// Coordinates missing, non-finite, out of range, or exactly 0,0.
    case invalidPosition = "invalid_position"
    /// Error estimate negative (invalid) or above `max_horizontal_error_m`.
    case lowAccuracy = "low_accuracy"
    /// Same time as the last accepted fix.
    case duplicate = "duplicate"
    /// Time earlier than the last accepted fix.
    case outOfOrder = "out_of_order"
    /// The jump from the last accepted fix implies a speed above `max_speed_mps`.
    case implausibleSpeed = "implausible_speed"
    /// A jump far beyond what the reported speeds and error estimates allow.
    case outlierJump = "outlier_jump"

    public static func < (lhs: RejectReason, rhs: RejectReason) -> Bool { lhs.rawValue < rhs.rawValue }
}
