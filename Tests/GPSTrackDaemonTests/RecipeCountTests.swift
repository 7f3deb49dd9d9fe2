import Foundation
import Testing

/// ARCHITECTURE.md's recipes for a new outlet and a new input, held to the code: the files they
/// list exist, and the uplinks and the pedometer that are built touch exactly the files the
/// recipes count (so a count that grows, or a file that moves, fails here).
@Suite struct RecipeCountTests {
    /// The `Sources/...` files listed, numbered, in the ARCHITECTURE.md section `title`.
    static func listed(_ title: String) throws -> [String] {
        let doc = try DocsTests.text("docs/ARCHITECTURE.md")
        let start = try #require(doc.range(of: "## \(title)\n"), "the section \(title) is gone")
        let rest = doc[start.upperBound...]
        return DocsTests.listedSources(in: rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// Every Swift file under Sources, by its path from the package root.
    static func sources() throws -> [String: String] {
        let root = DocsTests.root.appendingPathComponent("Sources")
        var files: [String: String] = [:]
        let walk = try #require(FileManager.default.enumerator(atPath: root.path))
        for case let path as String in walk where path.hasSuffix(".swift") {
            files["Sources/" + path] = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    /// Whether `text` names `word` as a whole identifier (not as the start of a longer one).
    static func names(_ text: String, _ word: String) -> Bool {
        var rest = Substring(text)
        while let r = rest.range(of: word) {
            let next = rest[r.upperBound...].first
            if next.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
            rest = rest[r.upperBound...]
        }
        return false
    }

    @Test func anHTTPUplinkTouchesTheEightFilesTheRecipeLists() throws {
        let files = try Self.listed("How to add an outlet (a sink)")
        #expect(files.count == 8, "the recipe lists \(files)")
        let sources = try Self.sources()
        let template = "Sources/GPSTrackDaemon/HTTP/NameUplink.swift"
        #expect(files.contains(template))
        for file in files where file != template { #expect(sources[file] != nil, "\(file) is listed but missing") }
        // The Traccar uplink, every part named (its class, its settings' type, the property, its
        // keys and its `uplink` label), touches the recipe's files and no other; the webhook's
        // (no numbers to bound) a part of them.
        for (uplink, config, property, key, all) in [
            ("TraccarUplink", "TraccarConfig", "traccar", "traccar", true),
            ("WebhookUplink", "WebhookConfig", "webhook", "webhook", false),
        ] {
            let touching = Set(
                sources.filter { _, text in
                    Self.names(text, uplink) || Self.names(text, config) || Self.names(text, "." + property)
                        || Self.names(text, "var " + property) || text.contains("\"\(key)")
                }.keys.map { $0 == "Sources/GPSTrackDaemon/HTTP/\(uplink).swift" ? template : $0 })
            if all {
                #expect(touching == Set(files), "\(uplink) touches \(touching.sorted())")
            } else {
                #expect(touching.isSubset(of: Set(files)), "\(uplink) touches \(touching.sorted())")
            }
        }
    }

    @Test func anInputTouchesTheSevenFilesTheRecipeLists() throws {
        let files = try Self.listed("How to add an input")
        #expect(files.count == 7, "the recipe lists \(files)")
        let sources = try Self.sources()
        let new = files.filter { $0.contains("Name") }
        #expect(new.count == 2, "two new files: \(new)")
        // The model, the pedometer: each listed file that exists names a part of it.
        #expect(sources["Sources/GPSTrackDaemon/Pedometer/IIOSource.swift"] != nil, "the model's source")
        for file in files where !new.contains(file) {
            let text = try #require(sources[file], "\(file) is listed but missing")
            #expect(
                ["IIOSource", "handleSteps", "iioRoot", "pedometer"].contains { Self.names(text, $0) },
                "\(file) names no part of the pedometer")
        }
    }
}
