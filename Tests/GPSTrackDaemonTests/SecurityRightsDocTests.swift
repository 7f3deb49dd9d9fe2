import Foundation
import GPSTrackCore
import Testing

/// docs/SECURITY.md says what the code does: who may send each command is the code's table.
@Suite struct SecurityRightsDocTests {
    static func section(_ title: String) throws -> [String] {
        let text = try DocsTests.text("docs/SECURITY.md")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "## \(title)"), "docs/SECURITY.md has no ## \(title)")
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    @Test func theControlSocketSectionListsTheCommandTable() throws {
        let lines = try Self.section("Control socket")
        let table = lines.drop { !$0.hasPrefix("| channel |") }.prefix { $0.hasPrefix("|") }
        #expect(Array(table) == CommandRights.markdown)
    }

    @Test func theReadmeLinksIt() throws {
        #expect(DocsTests.links(in: try DocsTests.text("README.md")).contains("docs/SECURITY.md"))
    }
}
