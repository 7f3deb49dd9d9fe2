import GPSTrackVocabulary

extension TrackingSession.Sequenced {
    /// The event's name on the wire (`enter`, `trip_end`, `fences_determined`, …).
    public var name: EventName {
        switch event {
        case .fence(let f): f.kind.name
        case .fencesDetermined: .fencesDetermined
        case .tracker(let t): t.name
        }
    }

    /// Whether it is an automatic trip's end.
    public var isTripEnd: Bool {
        if case .tracker(.tripEnd) = event { return true }
        return false
    }

    /// The fix time the event happened at.
    public var time: Double? {
        switch event {
        case .fence(let f): f.time
        case .fencesDetermined(let c): c.time
        case .tracker(let t): t.time
        }
    }
}

extension TrackingSession {
    /// Names (else ids) of the fences containing `p`, in file order; none without fences.
    public func fenceNames(at p: Coordinate) -> [String] {
        guard let index = geofences?.index else { return [] }
        return Self.fenceNames(at: p, in: index)
    }

    /// Names (else ids) of the fences the last determination found the position inside.
    public var insideFenceNames: [String] {
        guard let monitor = geofences else { return [] }
        return monitor.index.fences.indices.filter { monitor.statuses[$0].state == .inside }
            .map { monitor.index.fences[$0].name ?? monitor.index.fences[$0].id }
    }
}
