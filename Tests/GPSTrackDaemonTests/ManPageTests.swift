import Foundation
import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import Testing

/// The man pages in man/*.scd, built with scdoc as `make install` and the package build them.
enum ManPages {
    static let sources = ["gpstrackd.8", "gpstrackctl.1", "gpstrackd.conf.5", "gpstrackd-fences.5"]

    /// Renders every page into `<dir>/man<section>/`, for `man -l` and MANPATH.
    static func render() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gpstrackd-man-\(getpid())")
        for page in sources {
            let section = String(page.split(separator: ".").last!)
            let sub = dir.appendingPathComponent("man\(section)")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            let source = ExecutableRunner.packageRoot.appendingPathComponent("man/\(page).scd")
            let result = try ExecutableRunner.run([], stdin: try Data(contentsOf: source), executable: "/usr/bin/scdoc")
            guard result.status == 0 else { throw Failure(message: "scdoc \(page).scd: \(result.stderr)") }
            try result.stdout.write(to: sub.appendingPathComponent(page), atomically: true, encoding: .utf8)
        }
        return dir
    }

    static func path(_ page: String, in dir: URL) -> String {
        dir.appendingPathComponent("man\(page.split(separator: ".").last!)/\(page)").path
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

@Suite struct ManPageTests {
    @Test func pagesRenderWithoutWarnings() throws {
        let dir = try ManPages.render()
        for page in ManPages.sources {
            let path = ManPages.path(page, in: dir)
            let man = try ExecutableRunner.run(["--warnings", "-E", "UTF-8", "-l", path], executable: "/usr/bin/man")
            #expect(man.status == 0 && man.stderr.isEmpty, "man --warnings -l \(page): \(man.stderr)")
            #expect(
                man.stdout.contains("NAME") && man.stdout.contains("SEE ALSO"),
                "\(page) rendered: \(man.stdout.prefix(200))")
            let groff = try ExecutableRunner.run(["-ww", "-z", "-man", path], executable: "/usr/bin/groff")
            #expect(groff.status == 0 && groff.stderr.isEmpty, "groff -ww -z \(page): \(groff.stderr)")
        }
    }

    /// Every key the parser knows is a term of gpstrackd.conf(5), with its default close by.
    @Test func everyConfigKeyIsDocumentedWithItsDefault() throws {
        let dir = try ManPages.render()
        let lines = try String(contentsOfFile: ManPages.path("gpstrackd.conf.5", in: dir), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(ConfigParser.keys.count > 30)
        for key in ConfigParser.keys {
            let term = "\\fB\(key)\\fR ="
            guard let at = lines.firstIndex(where: { $0.contains(term) }) else {
                Issue.record("gpstrackd.conf(5) does not document the key \(key)")
                continue
            }
            // The entry runs to the next term (.PP or .RE ends it); its text names the default.
            let entry = lines[at..<min(lines.count, at + 12)].prefix { !$0.hasPrefix(".SH") }
            #expect(entry.joined(separator: " ").contains("Default"), "gpstrackd.conf(5): \(key) has no default")
        }
    }

    /// Every event of the vocabulary and every journal field is in gpstrackd(8), in bold as
    /// the page writes them (`*stall\_over*`, `*GPSTRACK\_SEQ*`).
    @Test func everyEventAndJournalFieldIsDocumented() throws {
        let page = try String(contentsOfFile: "man/gpstrackd.8.scd", encoding: .utf8)
        func bold(_ name: String) -> String { "*" + name.replacingOccurrences(of: "_", with: "\\_") + "*" }
        #expect(EventName.allCases.count > 60 && JournalField.allCases.count > 70)
        for event in EventName.allCases {
            #expect(page.contains(bold(event.rawValue)), "gpstrackd(8) does not name the event \(event.rawValue)")
        }
        for field in JournalField.allCases {
            #expect(
                page.contains(bold(field.rawValue)), "gpstrackd(8) does not name the journal field \(field.rawValue)")
        }
    }

    /// The unit's Documentation= names exactly these pages (systemd-analyze verify runs man on them).
    @Test func unitDocumentationNamesThePages() throws {
        let unit = try String(
            contentsOf: ExecutableRunner.packageRoot.appendingPathComponent("systemd/gpstrackd.service"),
            encoding: .utf8)
        for page in ["gpstrackd(8)", "gpstrackd.conf(5)", "gpstrackctl(1)"] {
            #expect(unit.contains("man:\(page)"), "Documentation= lacks man:\(page)")
        }
    }
}
