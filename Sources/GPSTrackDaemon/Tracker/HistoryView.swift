import GPSTrackCore
import GPSTrackProtocol
import GPSTrackVocabulary

/// What a history query reads (`trips`, `stops`, `events`, `export`): the store, its
/// batch committed first, and the session as it is, handed to the query on the tracker's own
/// thread (SQLite blocks there, never on the cooperative pool). The queries are
/// `HistoryHandlers`', outside the actor; they read this and keep nothing of it.
public struct HistoryView {
    let store: Store?
    public let session: TrackingSession
    public let tripMode: TrackerConfig.TripMode
    let journal: Journal
    /// The map page's tiles (`map_tiles_url`), for the export's context.
    var mapTiles: MapTiles? = nil

    /// The store, when it can answer a history query.
    func availableStore() -> Result<Store, ControlError> {
        // On a full disk the file still reads.
        guard let store, store.degradedReason == nil || store.spellFull else {
            return .failure(ControlError("storage unavailable: \(store?.degradedReason ?? "no state directory")"))
        }
        return .success(store)
    }

    /// An automatic trip's span of fix time (its points, whatever odometer run holds them): a
    /// stored trip's, or the open one's up to the last accepted fix; nil for no such trip.
    func autoTripSpan(_ n: Int64, store: Store) -> (Double, Double)? {
        if let t = store.autoTrips().first(where: { $0.id == n }) { return (t.start, t.end) }
        guard let open = session.tracker.trips.openTrip, open.id == Int(n) else { return nil }
        return (open.start, session.tracker.lastAccepted?.time ?? open.start)
    }
}

extension TrackerService {
    /// Runs a history query on the tracker's thread; `commit` first writes what waits in the
    /// store's batch, so that the answer holds every point and event so far.
    public func history<T: Sendable>(commit: Bool, _ query: @Sendable (HistoryView) -> T) -> T {
        if commit { persist(force: true) }
        return query(
            HistoryView(
                store: store, session: session, tripMode: configuration.tracker.tripMode, journal: journal,
                mapTiles: configuration.mapTiles))
    }
}
