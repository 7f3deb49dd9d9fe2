import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

/// docs/SECURITY.md's table of input channels kept in step: every channel the daemon reads from
/// has a row, each row says who writes, what is checked and what a bad input gets, and the
/// code, journal events and keys it names exist.
@Suite struct SecurityDocTests {
    /// Every input channel of the daemon, as the table's first column begins.
    static let channels = [
        "Configuration file", "Fences GeoJSON file", "State database", "gpsd data", "Pushed MQTT commands",
        "OwnTracks HTTP reply", "HTTP server replies", "sysfs and IIO", "Control socket requests",
    ]
    /// Snake-case names in the table that are neither an event nor a key: a fence's properties
    /// (gpstrackd-fences(5)) and a field of `status`.
    static let otherNames: Set<String> = ["width_m", "dwell_s", "last_error"]

    /// The rows of the table under "## Input channels", each as its cells.
    static func rows() throws -> [[String]] {
        let text = try DocsTests.text("docs/SECURITY.md")
        let section = try #require(text.components(separatedBy: "\n## Input channels\n").dropFirst().first)
        let body = section.components(separatedBy: "\n## ").first ?? section
        return body.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst().map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func everyChannelHasOneRowOfFourCells() throws {
        let rows = try Self.rows()
        for channel in Self.channels {
            #expect(rows.filter { $0.first?.hasPrefix(channel) == true }.count == 1, "docs/SECURITY.md: \(channel)")
        }
        #expect(rows.count == Self.channels.count, "a row for a channel the list lacks: \(rows.map { $0.first ?? "" })")
        for row in rows {
            #expect(row.count == 4 && row.allSatisfy { $0.count > 10 }, "\(row)")
        }
    }

    @Test func theCodeEventsAndKeysItNamesExist() throws {
        let sources = DocsTests.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        let events = Set(EventName.allCases.map(\.rawValue))
        let keys = Set(ConfigParser.keys)
        var named = 0
        for row in try Self.rows() {
            for cell in row {
                let quoted = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.offset % 2 == 1 }.map { String($0.element) }
                for name in quoted {
                    if name.hasSuffix(".swift") {
                        #expect(
                            files.contains { $0 == name || $0.hasSuffix("/" + name) }, "docs/SECURITY.md names \(name)")
                        named += 1
                    } else if name.wholeMatch(of: /[a-z]+(_[a-z]+)+/) != nil {
                        #expect(
                            events.contains(name) || keys.contains(name) || Self.otherNames.contains(name),
                            "docs/SECURITY.md: \(name) is no event, key or field")
                        named += 1
                    }
                }
            }
        }
        #expect(named >= 20, "only \(named) names read from the table")
    }
}
