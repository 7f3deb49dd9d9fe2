import Foundation
import Testing

/// The README stays short and points into docs/, and no link of the README or docs/*.md leads
/// nowhere (a file moved or renamed without its links).
@Suite struct DocsTests {
    static let root = ExecutableRunner.packageRoot
    static let documents = ["ARCHITECTURE.md", "TESTING.md", "PERFORMANCE.md", "PROTOCOL.md", "SECURITY.md"]

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The targets of the Markdown links `[text](target)` outside fenced code blocks.
    static func links(in markdown: String) -> [String] {
        var targets: [String] = []
        var fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if fenced { continue }
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                targets.append(String(rest[..<close]))
                rest = rest[close...]
            }
        }
        return targets
    }

    @Test func theReadmeIsAtMost250Lines() throws {
        let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        // A file ending in a line end has an empty last piece, which is no line.
        let count = lines.last == "" ? lines.count - 1 : lines.count
        #expect(count <= 250, "README.md has \(count) lines: detail belongs in docs/ or the man pages")
    }

    @Test func theDocumentsExistAndTheReadmeLinksThem() throws {
        let readme = try Self.text("README.md")
        for name in Self.documents {
            let body = try Self.text("docs/\(name)")
            #expect(body.hasPrefix("# "), "docs/\(name) does not begin with a title")
            #expect(Self.links(in: readme).contains("docs/\(name)"), "README.md does not link docs/\(name)")
        }
    }

    @Test func everyRelativeLinkNamesAFileThatExists() throws {
        let files = ["README.md"] + Self.documents.map { "docs/\($0)" }
        var checked = 0
        for file in files {
            let dir = Self.root.appendingPathComponent(file).deletingLastPathComponent()
            for target in Self.links(in: try Self.text(file)) {
                if target.contains("://") || target.hasPrefix("mailto:") || target.hasPrefix("#") { continue }
                let path = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                let url = dir.appendingPathComponent(path).standardizedFileURL
                #expect(
                    FileManager.default.fileExists(atPath: url.path),
                    "\(file): the link \(target) names no file (\(url.path))")
                checked += 1
            }
        }
        #expect(checked >= 8, "only \(checked) relative links found: is the link reader broken?")
    }

    @Test func theLinkReaderFindsLinksAndSkipsCode() {
        let sample = "See [a](docs/A.md) and [b](B.md#part).\n```\n[c](in-code.md)\n```\n[d](https://x.org)"
        #expect(Self.links(in: sample) == ["docs/A.md", "B.md#part", "https://x.org"])
    }

    /// The value of a make variable: its line and the continued lines after it, joined.
    static func makeVariable(_ name: String, in text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.first, !line.hasPrefix(name + " = ") { lines = lines.dropFirst() }
        guard var value = lines.first?.dropFirst(name.count + 3).map(String.init).joined() else { return nil }
        while value.hasSuffix("\\"), let next = lines.dropFirst().first {
            value = String(value.dropLast()) + " " + next.trimmingCharacters(in: .whitespaces)
            lines = lines.dropFirst()
        }
        return value.split(separator: " ").joined(separator: " ")
    }

    /// `make bench` measures the build the package ships: the Makefile's BENCH_BUILD is
    /// debian/rules' SWIFTBUILD, flag for flag.
    @Test func theBenchBuildsAsThePackageDoes() throws {
        let bench = try #require(Self.makeVariable("BENCH_BUILD", in: try Self.text("Makefile")))
        let package = try #require(Self.makeVariable("SWIFTBUILD", in: try Self.text("debian/rules")))
        #expect(bench == package)
        #expect(package.contains("--static-swift-stdlib") && package.contains("--no-export-dynamic"), "\(package)")
        // The functions that run placed first: the order file is there, one mangled name a line.
        #expect(package.contains("--symbol-ordering-file=$(CURDIR)/debian/text-order.txt"), "\(package)")
        let order = try Self.text("debian/text-order.txt").split(separator: "\n")
        #expect(order.count > 1000, "debian/text-order.txt lists \(order.count) functions (make text-order)")
        #expect(order.allSatisfy { !$0.contains(" ") && !$0.isEmpty }, "one name a line")
        #expect(order.contains { $0.hasPrefix("$s14GPSTrackDaemon11GPSDDecoderC6decode") }, "the decoder runs")
        // The private helpers, which the order file cannot name, kept together next to them.
        #expect(package.contains("-Xlinker -T -Xlinker $(CURDIR)/debian/text-private.ld"), "\(package)")
        let script = try Self.text("debian/text-private.ld")
        #expect(script.contains("*(.text..L*)") && script.contains("INSERT BEFORE .text;"), "\(script)")
        // libstdc++ linked in: its directory, searched before GCC's, names GCC's archive.
        #expect(package.contains("-Xswiftc -L$(CURDIR)/debian/static-cxx"), "\(package)")
        let cxx = try Self.text("debian/static-cxx/libstdc++.so")
        #expect(cxx.contains("INPUT(-l:libstdc++.a)"), "\(cxx)")
    }

    /// The source files a numbered list names (the first `Sources/...` path of each item).
    static func listedSources(in section: Substring) -> [String] {
        section.split(separator: "\n").filter { $0.first?.isNumber == true && $0.contains(". `Sources/") }
            .compactMap { line in
                line.split(separator: "`").first { $0.hasPrefix("Sources/") }.map(String.init)
            }
    }

    /// ARCHITECTURE.md's claim that a tracker event kind touches six files (the core, the
    /// vocabulary, the wire, the telling and two outlets), held to the code: each file exists
    /// and holds its part, and the daemon's file tells every `TrackerEvent` case in both of its
    /// switches.
    @Test func theEventKindSectionNamesTheFilesThatHoldTheirParts() throws {
        let doc = try Self.text("docs/ARCHITECTURE.md")
        let start = try #require(doc.range(of: "## How to add an event kind\n"), "the section is gone")
        let rest = doc[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        let files = Self.listedSources(in: section)
        #expect(files.count == 6, "the section lists \(files)")
        var byModule: [String: String] = [:]
        for file in files where !file.contains("/HTTP/") && !file.contains("/MQTT/") {
            byModule[String(file.split(separator: "/")[1])] = try Self.text(file)
        }
        #expect(
            Set(byModule.keys) == ["GPSTrackCore", "GPSTrackVocabulary", "GPSTrackProtocol", "GPSTrackDaemon"],
            "\(files)")
        // The name is written once, in the vocabulary: the core and the wire map to its cases.
        let vocabulary = try #require(byModule["GPSTrackVocabulary"])
        #expect(
            vocabulary.contains("public enum EventName: String")
                && vocabulary.contains(#"case tripStart = "trip_start""#))
        for module in ["GPSTrackCore", "GPSTrackProtocol"] {
            #expect(try #require(byModule[module]).contains(#""trip_start""#) == false, "\(module) writes a name")
        }
        // The outlets: each switches over the kinds, with no `default` to let a new one through.
        for file in files where file.contains("/HTTP/") || file.contains("/MQTT/") {
            let text = try Self.text(file)
            #expect(text.contains("switch") && !text.contains("default:"), "\(file)")
        }
        let core = try #require(byModule["GPSTrackCore"])
        #expect(core.contains("public enum TrackerEvent") && core.contains("public var time: Double?"))
        #expect(try #require(byModule["GPSTrackProtocol"]).contains("public enum Body"))
        let daemon = try #require(byModule["GPSTrackDaemon"])
        #expect(daemon.contains("var lineBody: EventLine.Body") && daemon.contains("func journalEntry("))
        // Every case of the core's enum, told twice: once as a line, once as a journal entry.
        let declarations = try #require(core.range(of: "public enum TrackerEvent")).upperBound
        let body = core[declarations...].prefix { $0 != "}" }.components(separatedBy: "public var name")[0]
        let cases = body.split(separator: "\n").compactMap { line -> String? in
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("case "), t.contains("(") else { return nil }
            return String(t.dropFirst(5).prefix { $0.isLetter })
        }
        #expect(cases.count >= 14, "read only \(cases) from TrackerEvent.swift")
        // The other families: a fence kind told in one daemon file, the anchor kinds named beside
        // the vocabulary.
        let fence = try Self.text("Sources/GPSTrackDaemon/Journal/FenceEvent+Telling.swift")
        #expect(fence.contains("var lineBody: EventLine.Body") && fence.contains("func journalEntry("))
        #expect(
            section.contains("Journal/FenceEvent+Telling.swift") && section.contains("Journal/EventLog+Anchor.swift"))
        #expect(try #require(byModule["GPSTrackProtocol"]).contains("public enum Kind: Sendable"), "AnchorChange.Kind")
        for name in cases {
            let told = daemon.components(separatedBy: "case .\(name)(").count - 1
            #expect(told == 2, "\(name) is told \(told) times in \(files[3]), not 2 (line and entry)")
        }
    }
}
