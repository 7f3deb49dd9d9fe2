import Foundation
import Testing

/// Every conversion of an outside figure to an integer goes through the one checked helper
/// (`Int(checking:)`, `Int(clamping:)`, `Sources/GPSTrackJSON/CheckedInteger.swift`), where
/// `Int(_:)` traps on a figure beyond the type (a pushed radius of 1e19, a damaged row's
/// 1e300). This greps Sources for every other integer conversion: each file's count is held
/// to the list below, which says why each of those cannot trap. A new one fails here: route it
/// through the helper, or add it with its reason.
@Suite struct IntegerConversionTests {
    /// `Int(`, `Int64(`, `UInt32(`... but not the checked or wrapping forms, nor a C constant's.
    static let pattern =
        #"\b(U?Int(8|16|32|64)?)\((?!checking:|clamping:|bitPattern:|truncatingIfNeeded:|ascii:|bigEndian:|littleEndian:|SOCK_|POLL|MSG_|GEOS_|PTHREAD_|NI_)"#

    static let widening = "integer to a type as wide or wider (Int64 is Int on 64-bit Linux)"
    static let parsing = "parses text (nil, never a trap, on a bad or too large number)"

    /// Path under Sources, the conversions it holds, and why none of them traps.
    static let allowed: [(String, Int, String)] = [
        ("GPSTrackCore/BoxTree.swift", 8, "node indices of an index of at most 2^31 boxes"),
        ("GPSTrackCore/ConfigParser+Anchor.swift", 1, parsing),
        ("GPSTrackCore/ConfigParser+Inputs.swift", 2, parsing),
        ("GPSTrackCore/InputConfig.swift", 1, parsing),
        ("GPSTrackCore/ConfigParser.swift", 2, parsing),
        ("GPSTrackCore/FenceCorridor.swift", 3, "counts of a pushed or read set of at most 4 MiB, for GEOS"),
        ("GPSTrackCore/FenceIndex+GEOS.swift", 4, "counts of a pushed or read set of at most 4 MiB, for GEOS"),
        ("GPSTrackCore/PlaintextCredentials.swift", 1, parsing),
        ("GPSTrackCore/IIOScan.swift", 9, "bit widths and bytes checked to 1...64 before"),
        ("GPSTrackCore/JSONLineCheck+Strings.swift", 2, "byte literals"),
        ("GPSTrackCore/TripDetectorState.swift", 3, parsing),
        ("GPSTrackCore/UplinkConfig.swift", 1, parsing),
        ("GPSTrackDaemon/Control/ExportHandlers.swift", 3, widening),
        ("GPSTrackDaemon/Control/HistoryHandlers.swift", 1, widening),
        ("GPSTrackDaemon/Control/PeerCredentials.swift", 5, "zeros and a group count of at most NGROUPS_MAX"),
        ("GPSTrackDaemon/GPSD/GPSDDecoder+Sky.swift", 2, widening),
        ("GPSTrackDaemon/GPSD/GPSDDecoder.swift", 1, widening),
        ("GPSTrackDaemon/GPSD/GPSDDecoder+TPV.swift", 1, widening),
        ("GPSTrackDaemon/HTTP/HTTPClient.swift", 2, "a header count of a few; curl's long status"),
        ("GPSTrackDaemon/HTTP/OsmAnd.swift", 2, "a byte's two hex digits"),
        ("GPSTrackDaemon/Journal/Journal.swift", 1, "a journal entry's few fields"),
        ("GPSTrackDaemon/MQTT/MQTTPublisher+Outbox.swift", 1, "SQLite's text of at most 1e9 bytes"),
        ("GPSTrackDaemon/MQTT/MQTTPublisher.swift", 6, "a port of 1-65535 (twice), a will of bytes, widening, time_t"),
        ("GPSTrackDaemon/MQTT/OwnTracksCrypto.swift", 14, "bytes and 6-bit base64 digits"),
        ("GPSTrackDaemon/MQTT/OwnTracksReporter.swift", 2, "time_t is Int"),
        ("GPSTrackDaemon/Inputs/InputRead.swift", 3, parsing),
        ("GPSTrackDaemon/Pedometer/IIOAccelBuffer.swift", 1, parsing),
        ("GPSTrackDaemon/Replay/ReplayInput.swift", 1, "a whole percentage checked to 0...100 before"),
        ("GPSTrackDaemon/Pedometer/IIODevice.swift", 1, parsing),
        ("GPSTrackDaemon/Pedometer/IIOSource.swift", 1, parsing),
        ("GPSTrackDaemon/Pedometer/StepFigures.swift", 1, "time_t is Int"),
        ("GPSTrackDaemon/Pedometer/StepLog.swift", 5, widening),
        ("GPSTrackDaemon/Store/SQLiteDatabase.swift", 3, "a bound value's index; sqlite3_changes' int; a flag"),
        ("GPSTrackDaemon/Store/Schema.swift", 1, widening),
        ("GPSTrackDaemon/Outbox/Outbox+Room.swift", 4, "QoS 0-2, counts and batches of the table, widening"),
        ("GPSTrackDaemon/Outbox/Outbox.swift", 3, "QoS 0-2 checked before; a count of the table, widening"),
        ("GPSTrackDaemon/Store/Store+Room.swift", 7, "widening; a reserve below its size, checked before"),
        ("GPSTrackDaemon/Store/Store+Trips.swift", 4, widening),
        ("GPSTrackDaemon/Store/Store+Write.swift", 5, widening),
        ("GPSTrackDaemon/System/NetworkAccess.swift", 2, "the port 9"),
        ("GPSTrackDaemon/Tracker/EventJSON.swift", 1, "a sequence number restored below 2^53"),
        ("GPSTrackDaemon/Tracker/HistoryView.swift", 1, widening),
        ("GPSTrackDaemon/Tracker/TrackerService+BrokerCommands.swift", 3, "time_t is Int"),
        ("GPSTrackDaemon/Tracker/TrackerSnapshot.swift", 1, "a sequence number restored below 2^53"),
        ("GPSTrackJSON/JSONParser.swift", 6, "a digit's value"),
        ("GPSTrackJSON/ReplyEncoder.swift", 12, widening),
        ("GPSTrackProtocol/ControlRequest.swift", 2, widening),
        ("GPSTrackProtocol/Timestamp.swift", 1, "a digit's value"),
        ("gpstrackctl/Export.swift", 3, parsing),
        ("gpstrackctl/main.swift", 2, "parses text; widening"),
    ]
    /// Modules no outside figure reaches: the simulator and the benchmarks make their own.
    static let ownFigures = ["GPSTrackSim/", "gpstrack-bench/", "GPSTrackTestKit/"]

    static func counts() throws -> [String: Int] {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let conversion = try Regex(pattern)
        var counts: [String: Int] = [:]
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        for case let path as String in walker where path.hasSuffix(".swift") {
            guard !ownFigures.contains(where: { path.hasPrefix($0) }) else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                counts[path, default: 0] += line.matches(of: conversion).count
                if line.contains("(exactly:"), !path.hasSuffix("CheckedInteger.swift") {
                    Issue.record("\(path): \(line.trimmingCharacters(in: .whitespaces)): use Int(checking:)")
                }
            }
        }
        return counts.filter { $0.value > 0 }
    }

    @Test func everyOtherIntegerConversionInSourcesIsListedWithItsReason() throws {
        let found = try Self.counts()
        let listed = Dictionary(uniqueKeysWithValues: Self.allowed.map { ($0.0, $0.1) })
        for (path, n) in found.sorted(by: { $0.key < $1.key }) where listed[path] != n {
            let known = listed[path] ?? 0
            let why =
                "Sources/\(path) has \(n) unchecked integer conversions, \(known) listed: route a new one through "
                + "Int(checking:) or Int(clamping:), or list it with its reason"
            Issue.record("\(why)")
        }
        for (path, _, _) in Self.allowed where found[path] == nil {
            Issue.record("Sources/\(path) is listed but has no unchecked conversion left: take it off the list")
        }
        #expect(found.count >= 30, "the grep found the sources: \(found.count) files")
    }
}
