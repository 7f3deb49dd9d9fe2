/// The one checked conversion of an outside figure (a file's, a peer's, a database row's, a
/// receiver's) to an integer type: nil where `Int(_:)` would trap (not finite, beyond the
/// type) or where `Int32(_:)` would from a wider integer. Every such conversion in Sources goes
/// through here; `IntegerConversionTests` greps for any other.
extension FixedWidthInteger {
    /// `value` rounded by `rule` (to nearest, halves away from zero, by default), or nil when
    /// it is not finite or its rounded value does not fit `Self`.
    @inlinable
    public init?<F: BinaryFloatingPoint>(
        checking value: F, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) {
        guard value.isFinite else { return nil }
        self.init(exactly: value.rounded(rule))
    }

    /// `value` when `Self` holds it, else nil (a database's Int64 for an Int32 field).
    @inlinable
    public init?<I: BinaryInteger>(checking value: I) {
        self.init(exactly: value)
    }

    /// `value` rounded by `rule`, held to `Self`'s range; 0 for NaN. For a figure already
    /// bounded where it entered, where nil would need a fallback that means nothing.
    @inlinable
    public init<F: BinaryFloatingPoint>(
        clamping value: F, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) {
        if value.isNaN {
            self = 0
        } else if let v = Self(checking: value, rounding: rule) {
            self = v
        } else {
            self = value < 0 ? .min : .max
        }
    }
}
