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
        ("anchor_grace_s", decimal(\.tracker.anchor.graceS, atLeast: 0, "seconds")),
        ("anchor_no_position_s", decimal(\.tracker.anchor.noPositionS, above: 0, "seconds")),
        ("anchor_repeat_s", decimal(\.tracker.anchor.repeatS, above: 0, "seconds")),
        ("anchor_redrag_m", decimal(\.tracker.anchor.redragM, above: 0, "metres")),
        ("anchor_bow_height_m", decimal(\.tracker.anchor.bowHeightM, atLeast: 0, "metres")),
        ("anchor_margin_m", decimal(\.tracker.anchor.marginM, atLeast: 0, "metres")),
    ]
}
