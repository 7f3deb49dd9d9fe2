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
}
