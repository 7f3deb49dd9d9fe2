import GPSTrackClient
import GPSTrackExport
import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `export --format`: the daemon's pages (`export_page`) through the format's writer to
/// standard output, a page at a time, so that a month exports in the memory of one page.
enum ExportCommand {
    /// Standard output in 64 KiB writes; a write that fails (a closed pipe, a full disk) ends
    /// the export with exit code 74.
    final class Output {
        private var buffer: [UInt8] = []

        func write(_ s: String) {
            buffer.append(contentsOf: s.utf8)
            if buffer.count >= 65536 { flush() }
        }

        func flush() {
            let code = writeAll(STDOUT_FILENO, buffer)
            if code != 0 { fail(.ioError, "gpstrackctl: cannot write the export: \(String(cString: strerror(code)))") }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// `today` and `yesterday` as the local date `YYYY-MM-DD` (gpstrackctl's time zone, TZ, as
    /// `date` has it); any other text as it is.
    static func named(_ text: String, now: time_t = time(nil)) -> String {
        guard text == "today" || text == "yesterday" else { return text }
        var t = now
        var local = tm()
        localtime_r(&t, &local)
        if text == "yesterday" {
            // Noon, a day back: mktime normalizes the month and a DST change cannot skip the day.
            local.tm_mday -= 1
            local.tm_hour = 12
            local.tm_isdst = -1
            t = mktime(&local)
            localtime_r(&t, &local)
        }
        var out = [CChar](repeating: 0, count: 16)
        let n = strftime(&out, out.count, "%Y-%m-%d", &local)
        return String(decoding: out.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The local day `YYYY-MM-DD` (gpstrackctl's time zone, TZ) as [midnight, next midnight).
    static func day(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, let y = Int32(parts[0]), let m = Int32(parts[1]),
            let d = Int32(parts[2]),
            (1...12).contains(m), (1...31).contains(d), y >= 1970
        else { return nil }
        func midnight(_ day: Int32) -> Double {
            var t = tm()
            t.tm_year = y - 1900
            t.tm_mon = m - 1
            t.tm_mday = day
            t.tm_isdst = -1
            return Double(mktime(&t))
        }
        let start = midnight(d)
        // The day must exist (no 2026-02-30): mktime would roll it over.
        var back = time_t(start)
        var check = tm()
        localtime_r(&back, &check)
        guard check.tm_mday == d else { return nil }
        return (start, midnight(d + 1))
    }

    /// Runs the export and exits: 0 written, 66 nothing to export (an unknown trip, no point in
    /// the range), 69 daemon not reachable, 1 an error response, 76 a page that does not read.
    static func run(
        _ scope: ExportScope, format: ExportFormat, title: String, fences: Bool, tiles: MapPage.TilesChoice,
        path: String
    ) -> Never {
        let output = Output()
        // Leaflet for the streets, read only for a page that may draw them.
        let leaflet =
            format == .html && tiles != .none
            ? MapPage.Leaflet.load(
                from: getenv("GPSTRACKCTL_LEAFLET_DIR").map { String(cString: $0) } ?? MapPage.Leaflet.directory)
            : nil
        var writer = format.writer(title: title, fences: fences, tiles: tiles, leaflet: leaflet) { output.write($0) }
        var after: Int?
        var pages = 0
        repeat {
            let reply = page(scope, after: after, path: path)
            if pages == 0 {
                if let why = reply.empty { fail(.noInput, "gpstrackctl: nothing to export: \(why)") }
                guard let context = reply.context else {
                    fail(
                        .protocolError, "gpstrackctl: gpstrackd at \(path) sent a first export page without its context"
                    )
                }
                writer.begin(context)
            }
            for p in reply.points { writer.point(p) }
            // A cursor that does not move on would loop for ever: said, not followed.
            if let next = reply.after, let a = after, next <= a {
                fail(.protocolError, "gpstrackctl: gpstrackd at \(path) sent an export page that does not move on")
            }
            after = reply.after
            pages += 1
        } while after != nil
        writer.finish()
        output.flush()
        exit(0)
    }

    /// One page: its own connection, so that the daemon holds no export between pages.
    static func page(_ scope: ExportScope, after: Int?, path: String) -> ExportPageReply {
        let client: ControlClient
        do { client = try ControlClient(path: path) } catch {
            fail(
                .unavailable, "gpstrackctl: cannot reach gpstrackd at \(path): \(String(cString: strerror(error.code)))"
            )
        }
        guard client.send(ControlRequest.exportPage(scope, after: after).line), let line = client.readLine() else {
            fail(.unavailable, "gpstrackctl: gpstrackd at \(path) hung up during the export")
        }
        let value = (try? JSONValue.parse(Array(line.utf8))) ?? .null
        guard value["ok"] == .bool(true) else {
            fail(.failure, "gpstrackctl: \((try? ReplyDecoder.decode(ErrorReply.self, from: value))?.error ?? line)")
        }
        do { return try ReplyDecoder.decode(ExportPageReply.self, from: value) } catch {
            fail(
                .protocolError,
                "gpstrackctl: gpstrackd at \(path) sent an export page this gpstrackctl cannot read: \(error)")
        }
    }
}
