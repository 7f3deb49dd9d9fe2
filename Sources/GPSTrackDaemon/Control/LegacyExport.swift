import GPSTrackExport
import GPSTrackJSON
import GPSTrackProtocol

/// A reply written a part at a time as its client reads it: the parts, joined, are the
/// reply's one line (its line end comes with `ControlServer.endReply`).
public protocol StreamedReply: Sendable {
    /// Writes the line's parts through `part`, which returns once the part is on its way and
    /// false when the client is gone: then no more is made.
    func write(_ part: @Sendable (String) async -> Bool) async
}

/// The legacy `export` (`gpstrackctl export --gpx`): `ExportReply`'s line, its GPX made from the
/// `export_page` pages by `GPXExport` (the writer of `export --format gpx`), a page at a time,
/// so that the daemon holds one page of the document whatever the history's size. The points'
/// count, known at the end, is the line's last member. A scope with nothing to export is an
/// error reply, as `--format` has it.
struct LegacyExport: StreamedReply, Encodable {
    let tracker: TrackerService
    let scope: ExportScope

    func write(_ part: @Sendable (String) async -> Bool) async {
        let title = scope.trip.map { "gpstrackd trip \($0)" } ?? "gpstrackd track"
        let buffer = Buffer()
        var writer = GPXExport(title: title) { buffer.text += $0 }
        var after: Int?
        var points = 0
        repeat {
            let (scope, cursor) = (scope, after)
            // The first page is read with what waits committed; the next ones go on from it.
            let result = await tracker.history(commit: cursor == nil) {
                ExportHandlers.page($0, scope, after: cursor, limit: nil)
            }
            let why: String
            switch result {
            case .success(let page as ExportPageReply) where page.empty == nil:
                if cursor == nil {
                    guard let context = page.context else {
                        why = "the first page has no context"
                        break
                    }
                    writer.begin(context)
                }
                for p in page.points { writer.point(p) }
                points += page.points.count
                // A cursor that does not move on would loop for ever.
                if let next = page.after, let a = cursor, next <= a {
                    why = "a page that does not move on"
                    break
                }
                after = page.after
                if after == nil { writer.finish() }
                let head = cursor == nil ? #"{"ok":true,"gpx":""# : ""
                guard await part(head + buffer.take()) else { return }
                continue
            case .success(let page as ExportPageReply): why = page.empty ?? "nothing to export"
            case .success: why = "a page of another type"
            case .failure(let error): why = error.message
            }
            // An error reply when nothing was written yet; else the line is cut short, and the
            // client reads a line that does not parse, never a document that looks whole.
            if cursor == nil { _ = await part(ReplyEncoder.encode(ErrorReply(error: why))) }
            return
        } while after != nil
        _ = await part(#"","points":\#(points)}"#)
    }

    /// Not encoded: written by `write` (`ReplyEncoder` answers this with an error reply).
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            scope.trip as Any, .init(codingPath: [], debugDescription: "a streamed reply is written, not encoded"))
    }

    /// What the writer emitted since the last part, taken as JSON string content.
    private final class Buffer {
        var text = ""

        func take() -> String {
            defer { text = "" }
            return String(ReplyEncoder.quote(text).dropFirst().dropLast())
        }
    }
}
