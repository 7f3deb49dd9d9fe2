import Foundation
import GPSTrackCore
import GPSTrackDaemon
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackSim
import GPSTrackTestKit
import Testing

/// The tracking actor and its sinks in-process (`TrackerHarness`): a seeded day's fixes handed
/// to it as gpsd's TPVs, the control handlers asked directly, the journal in memory. What the
/// live suites show through processes and sockets, here without either.
@Suite struct TrackerPipelineTests {
    static let seed: UInt64 = 3

    static func day() -> (day: DayScenario, trace: SimulatedTrace) {
        let day = DayScenario.make(seed: seed)
        return (day, Simulator.run(day.scenario, seed: seed))
    }

    /// Trips from the journal, the store and the `trips` reply agree with each other and with
    /// GeodSolve's length of the true paths.
    @Test func aSeededDaysTripsAreJournaledStoredAndReported() async throws {
        let (day, trace) = Self.day()
        let h = try await TrackerHarness { $0.pedometer = .off }
        await h.feed(trace.fixes)
        await h.endFeed()
        let trips = try await h.request(.trips, as: AutoTripsReply.self).trips.filter { $0.state == "ended" }
        let truths = try GeodSolveTruth.lengths(day.trips.map { Array(trace.truth[$0.start...$0.end]) })
        try #require(trips.count == day.trips.count, "\(trips.count) trips, \(day.trips.count) true")
        for (trip, truth) in zip(trips, truths) {
            #expect(abs(trip.traveledM / truth - 1) <= 0.03, "trip \(trip.id): \(trip.traveledM) m, true \(truth) m")
        }
        let ends = h.journal.entries(.tripEnd)
        #expect(ends.count == day.trips.count)
        #expect(h.journal.entries(.tripStart).count == day.trips.count)
        let status = try await h.request(.status, as: StatusReply.self)
        #expect(status.counters.fixesTotal == trace.fixes.count, "every fix counted once")
        let rejected = status.counters.fixesRejected.counts.values.reduce(0, +)
        #expect(status.counters.fixesAccepted + rejected == status.counters.fixesTotal)
        #expect(status.storage.state == "ok")
        await h.close()
    }

    /// Nobody hears of an event before it is stored: the `watch` lines are the stored events'
    /// lines, byte for byte, in order, and their sequence numbers only grow.
    @Test func watchersHearExactlyTheStoredEventsInOrder() async throws {
        let (_, trace) = Self.day()
        let centre = trace.truth[trace.truth.count / 3]
        let fences = [Fence(index: 0, id: "depot", name: "Depot", shape: .circle(center: centre, radiusM: 60))]
        let h = try await TrackerHarness(fences: fences) { $0.pedometer = .off }
        await h.feed(trace.fixes)
        let stored = try await h.request(.events(since: nil, fence: nil), as: EventsReply.self).events
        // The watchers also hear notices (NoticeLine: no sequence number), which are not stored.
        let watched = h.watchLines.compactMap { try? ReplyDecoder.decode(EventLine.self, line: $0) }
        try #require(stored.count > 6, "a day with trips and a fence makes events: \(stored.count)")
        #expect(watched == stored, "watch and the store differ")
        #expect(zip(stored, stored.dropFirst()).allSatisfy { $0.seq < $1.seq }, "sequence numbers only grow")
        let names = stored.map(\.body.name.rawValue)
        #expect(names.contains("enter") && names.contains("exit"), "the route passes through the depot: \(names)")
        await h.close()
    }

    /// A reload of a bad fences file keeps the fences in force and says why, in the reply and
    /// the journal.
    @Test func aBadReloadKeepsTheFencesInForce() async throws {
        let (_, trace) = Self.day()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-fences-\(getpid()).geojson").path
        try Data("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\"}]}".utf8).write(
            to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let fences = [Fence(index: 0, id: "home", shape: .circle(center: trace.truth[0], radiusM: 80))]
        let h = try await TrackerHarness(fences: fences) {
            $0.pedometer = .off
            $0.fencesPath = file
        }
        await h.feed(Array(trace.fixes.prefix(120)))
        let reply = try await h.requestLine(.reload)
        #expect(reply.hasPrefix("{\"ok\":false"), "\(reply)")
        #expect(h.journal.entries(.fencesReloadFailed).count == 1)
        let after = try await h.request(.fences, as: FencesReply.self).fences
        #expect(after.map(\.id) == ["home"] && after.first?.state == "inside", "\(after)")
        await h.close()
    }

    /// Without a store (a state directory that cannot hold the database) the tracker carries on:
    /// status says degraded, the events still reach the journal and the watchers.
    @Test func aStoreThatCannotOpenLeavesTrackingAndTheJournalWorking() async throws {
        let (day, trace) = Self.day()
        let h = try await TrackerHarness { $0.pedometer = .off }
        // A second tracker on a state directory whose database path is a directory.
        let dir = h.stateDirectory + "/blocked"
        try FileManager.default.createDirectory(atPath: dir + "/gpstrackd.db", withIntermediateDirectories: true)
        let journal = InMemoryJournal()
        var config = Configuration()
        config.stateDirectory = dir
        config.pedometer = .off
        let tracker = try TrackerService(
            configuration: config, fences: nil, journal: journal.journal,
            store: Store(directory: dir, journal: journal.journal))
        for fix in trace.fixes { await tracker.handle(.record(.tpv(fix))) }
        let handlers = ControlHandlers(tracker: tracker, gpsd: nil, mqtt: nil, tripMode: config.tracker.tripMode)
        let line = ReplyEncoder.encode(await handlers.handle(.status).reply)
        let status = try ReplyDecoder.decode(StatusReply.self, line: line)
        #expect(status.storage.state == "degraded", "\(status.storage.state)")
        #expect(journal.entries(.tripEnd).count == day.trips.count, "the journal still hears every trip")
        #expect(!journal.entries(.storageDegraded).isEmpty)
        await tracker.finish()
        await h.close()
    }
}
