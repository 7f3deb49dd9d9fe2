import GPSTrackProtocol

/// The anchor watch's keys (`anchor_*`, see `AnchorConfig`).
extension ConfigParser {
    static let anchorTable: [(String, Setter)] = [
        (
            "anchor_warning_share",
            { c, v in
                guard let x = Double(v), x.isFinite, x > 0, x < 1 else {
                    return "expected a share of the radius above 0 and below 1, got '\(v)'"
                }
                c.tracker.anchor.warningShare = x
                return nil
            }
        ),
        (
            "anchor_grace_fixes",
            { c, v in
                guard let n = Int(v), (1...3600).contains(n) else {
                    return "expected a whole number of fixes from 1 to 3600, got '\(v)'"
                }
                c.tracker.anchor.graceFixes = n
                return nil
            }
        ),
        ("anchor_grace_s", anchorNumber(\.graceS, atLeast: 0, "seconds")),
        ("anchor_no_position_s", anchorNumber(\.noPositionS, above: 0, "seconds")),
        ("anchor_repeat_s", anchorNumber(\.repeatS, above: 0, "seconds")),
        ("anchor_redrag_m", anchorNumber(\.redragM, above: 0, "metres")),
        ("anchor_bow_height_m", anchorNumber(\.bowHeightM, atLeast: 0, "metres")),
        ("anchor_margin_m", anchorNumber(\.marginM, atLeast: 0, "metres")),
    ]

    /// A number of `unit` for an anchor key, at least `atLeast` (or above `above`).
    static func anchorNumber(
        _ path: WritableKeyPath<AnchorConfig, Double> & Sendable, atLeast: Double? = nil, above: Double? = nil,
        _ unit: String
    ) -> Setter {
        return { config, text in
            let bound = atLeast.map { ">= \(Int($0))" } ?? above.map { "> \(Int($0))" } ?? ""
            guard let v = Double(text), v.isFinite, atLeast.map({ v >= $0 }) ?? true, above.map({ v > $0 }) ?? true
            else {
                return "expected a number of \(unit) \(bound), got '\(text)'"
            }
            config.tracker.anchor[keyPath: path] = v
            return nil
        }
    }
}
