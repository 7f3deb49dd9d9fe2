import GPSTrackVocabulary

extension AnchorEvent {
    /// The event's name as used in output (`anchor_dropped`, ...).
    public var name: EventName {
        switch self {
        case .dropped: .anchorDropped
        case .warning: .anchorWarning
        case .alarm: .anchorAlarm
        case .noPosition: .anchorNoPosition
        case .acknowledged: .anchorAck
        case .raised: .anchorRaised
        }
    }

    /// The fix time it was decided at.
    public var time: Double {
        switch self {
        case .dropped(let t, _, _), .warning(let t, _, _), .alarm(let t, _, _, _), .noPosition(let t, _, _),
            .acknowledged(let t), .raised(let t, _):
            t
        }
    }
}

extension AnchorWatch.State {
    /// The state as text lines (`key=v1,v2`), for the state database: what a restart, a
    /// SIGKILL or a power cut must find again. Read back with `init?(encoded:)`.
    public var encoded: String {
        func alarm(_ a: AnchorWatch.Alarm) -> String {
            "\(a.raisedAt),\(a.lastSaidAt),\(a.repeats),\(a.acknowledged ? 1 : 0)"
        }
        var lines = [
            "anchor=\(anchor.latitude),\(anchor.longitude),\(radiusM),\(droppedAt)",
            "anchor_max=\(maxDistanceM),\(maxAt ?? .nan)",
            "anchor_warned=\(warned ? 1 : 0)",
        ]
        if let drag { lines.append("anchor_drag=" + alarm(drag)) }
        if let noPosition { lines.append("anchor_no_position=" + alarm(noPosition)) }
        if let ackedDistanceM { lines.append("anchor_acked=\(ackedDistanceM)") }
        if let t = lastFixTime, let d = lastDistanceM, let b = lastBearing {
            lines.append("anchor_last=\(t),\(d),\(b)")
        }
        return lines.joined(separator: "\n")
    }

    /// Reads back `encoded`; nil when the text holds no usable anchor (the watch then stays
    /// up: a damaged row never invents an anchor).
    public init?(encoded text: String) {
        var fields: [String: [Double]] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = line[line.index(after: eq)...].split(separator: ",").compactMap { Double($0) }
        }
        guard let a = fields["anchor"], a.count == 4, (-90...90).contains(a[0]), (-180...180).contains(a[1]),
            a[2].isFinite, a[2] > 0, a[3].isFinite
        else { return nil }
        self.init(anchor: Coordinate(latitude: a[0], longitude: a[1]), radiusM: a[2], droppedAt: a[3])
        if let m = fields["anchor_max"], m.count == 2, m[0].isFinite {
            maxDistanceM = m[0]
            maxAt = m[1].isFinite ? m[1] : nil
        }
        warned = fields["anchor_warned"]?.first == 1
        func alarm(_ v: [Double]?) -> AnchorWatch.Alarm? {
            guard let v, v.count == 4, v[0].isFinite, v[1].isFinite, v[2] >= 0, v[2] < 1e9 else { return nil }
            var a = AnchorWatch.Alarm(raisedAt: v[0])
            a.lastSaidAt = v[1]
            a.repeats = Int(clamping: v[2], rounding: .towardZero)
            a.acknowledged = v[3] == 1
            return a
        }
        drag = alarm(fields["anchor_drag"])
        noPosition = alarm(fields["anchor_no_position"])
        ackedDistanceM = fields["anchor_acked"]?.first.flatMap { $0.isFinite ? $0 : nil }
        if let l = fields["anchor_last"], l.count == 3, l.allSatisfy(\.isFinite) {
            lastFixTime = l[0]
            lastDistanceM = l[1]
            lastBearing = l[2]
        }
    }
}
