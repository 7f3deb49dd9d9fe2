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
        var lines = [
            "anchor=\(anchor.latitude),\(anchor.longitude),\(radiusM),\(droppedAt)",
            "anchor_max=\(maxDistanceM),\(maxAt ?? .nan)",
            "anchor_warned=\(warned ? 1 : 0)",
        ]
        if let drag { lines.append("anchor_drag=" + drag.encoded) }
        if let noPosition { lines.append("anchor_no_position=" + noPosition.encoded) }
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
        func alarm(_ v: [Double]?) -> LatchedAlarm? {
            v.flatMap { $0.count == 4 ? LatchedAlarm(fields: $0[...]) : nil }
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

extension AnchorWatch.State {
    /// Where the boat last was (the last fix's place, from the anchor by its bearing and
    /// distance): what a repeat said without a fix carries.
    public var lastPosition: Coordinate? {
        guard let d = lastDistanceM, let b = lastBearing else { return nil }
        return Geodesic.destination(from: anchor, azimuth: b, distance: d)
    }
}
