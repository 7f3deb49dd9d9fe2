import GPSTrackCore

/// The control commands that read the store's history: trips, stops, events, export.
extension TrackerService {
    func handleAutoTrips(_ o: JSONObject) -> Result<Reply, ControlError> {
        persist(force: true)
        return availableStore().map { store in
            var items = store.autoTrips().map { Self.tripObject($0, state: "ended").encoded }
            if let open = openTripObject() { items.append(open.encoded) }
            var o = o
            o.add("trips", raw: "[" + items.joined(separator: ",") + "]")
            return .fields(o)
        }
    }

    func handleTrips(_ o: JSONObject) -> Result<Reply, ControlError> {
        persist(force: true)
        return availableStore().map { store in
            let items = store.trips().map { t -> String in
                var j = JSONObject()
                j.add("id", Int(t.id))
                j.add("state", t.state)
                j.add("started_at", t.startedAt.map(Timestamp.iso8601))
                j.add("ended_at", t.endedAt.map(Timestamp.iso8601))
                j.add("traveled_m", t.traveledM, decimals: 2)
                j.add("straight_line_m", t.straightLineM, decimals: 2)
                j.add("duration_s", t.startedAt.flatMap { s in t.endedAt.map { $0 - s } }, decimals: 1)
                return j.encoded
            }
            var o = o
            o.add("trips", raw: "[" + items.joined(separator: ",") + "]")
            return .fields(o)
        }
    }

    func handleStops(_ o: JSONObject) -> Result<Reply, ControlError> {
        persist(force: true)
        let now = session.tracker.lastAccepted?.time
        return availableStore().map { store in
            let items = store.stops().map { stop, names -> String in
                var j = JSONObject()
                j.add("arrival", Timestamp.iso8601(stop.arrival))
                j.add("departure", stop.departure.map(Timestamp.iso8601))
                j.add("duration_s", (stop.departure ?? now).map { $0 - stop.arrival }, decimals: 1)
                j.add("at", EventJSON.place(stop.at, fences: names))
                if let trip = stop.afterTrip { j.add("after_trip", trip) }
                return j.encoded
            }
            var o = o
            o.add("stops", raw: "[" + items.joined(separator: ",") + "]")
            return .fields(o)
        }
    }

    func handleEvents(_ o: JSONObject, since: Double?, fence: String?) -> Result<Reply, ControlError> {
        availableStore().map { store in
            var o = o
            o.add("events", raw: "[" + store.events(since: since, fence: fence).joined(separator: ",") + "]")
            return .fields(o)
        }
    }

    func handleExport(_ o: JSONObject, trip: Int64?, since: Double?, until: Double?) -> Result<Reply, ControlError> {
        persist(force: true)
        let store: Store
        switch availableStore() {
        case .success(let s): store = s
        case .failure(let e): return .failure(e)
        }
        var points: [(Int64, [Store.PointRow])]
        if configuration.tracker.tripMode == .auto, let n = trip {
            // An automatic trip is a span of time: its points, whatever odometer run holds them.
            let open = session.tracker.trips.openTrip
            guard let span = store.autoTrips().first(where: { $0.id == n }).map({ ($0.start, $0.end) })
                    ?? open.flatMap({ $0.id == Int(n) ? ($0.start, session.tracker.lastAccepted?.time ?? $0.start) : nil }) else {
                return .failure(ControlError("no trip \(n)"))
            }
            let all = store.points(trip: nil, since: span.0, until: span.1).flatMap(\.1)
            points = all.isEmpty ? [] : [(n, all)]
        } else {
            points = store.points(trip: trip, since: since, until: until)
        }
        var o = o
        o.add("points", points.reduce(0) { $0 + $1.1.count })
        o.add("gpx", GPXWriter.document(points))
        return .success(.fields(o))
    }
}
