import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import GPSTrackTestKit
import Synchronization
import Testing

/// The daemon's service group in-process: reverse order, every service stopped, the stop flag.
@Suite struct ServiceGroupTests {
    @Test func servicesStopInReverseOrderAndTheFlagIsUpWhileTheyDo() async {
        let journal = InMemoryJournal()
        let group = ServiceGroup(
            configuration: ServiceGroup.Configuration(deadlineS: nil, escalateOnSecondSignal: false),
            journal: journal.journal)
        let stopped = Mutex<[String]>([])
        for name in ["store", "tracker", "socket", "gpsd"] {
            group.add(name) {
                stopped.withLock { $0.append(name + (group.stopping ? "" : " (flag down)")) }
            }
        }
        #expect(!group.stopping)
        let code = await group.stop(.config)
        #expect(code == .config)
        #expect(stopped.withLock { $0 } == ["gpsd", "socket", "tracker", "store"])
        // A second stop finds nothing left to stop.
        await group.stop()
        #expect(stopped.withLock { $0 }.count == 4)
    }

    /// A part that is a `Service` (MQTT, each uplink's sender) is held as itself and stopped in
    /// its place among the closures, once.
    final class Log: Sendable {
        let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
    }

    final class Part: Service {
        let name: String
        let log: Log
        init(_ name: String, _ log: Log) {
            self.name = name
            self.log = log
        }
        func stop() async { log.add(name) }
    }

    @Test func aServiceIsStoppedInItsPlaceByItsName() async {
        let group = ServiceGroup(
            configuration: ServiceGroup.Configuration(deadlineS: nil, escalateOnSecondSignal: false),
            journal: InMemoryJournal().journal)
        let log = Log()
        group.add("store") { log.add("store") }
        group.add(Part("MQTT", log))
        group.add(Part("traccar", log))
        group.add("tracker") { log.add("tracker") }
        await group.stop()
        #expect(log.names.withLock { $0 } == ["tracker", "traccar", "MQTT", "store"])
    }
}
