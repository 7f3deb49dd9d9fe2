import GPSTrackCore
import GPSTrackProtocol
import Testing

@Suite struct LineSplitterTests {
    @Test func linesAcrossChunksAndTheUnterminatedLast() {
        var s = LineSplitter(maxLineBytes: 100)
        s.append(Array("ab".utf8))
        #expect(s.nextLine() == nil)
        s.append(Array("c\nde\n\nf".utf8))
        let lines = [s.nextLine(), s.nextLine(), s.nextLine()].compactMap { $0 }
        #expect(lines.map { String(decoding: $0.bytes, as: UTF8.self) } == ["abc", "de", ""])
        #expect(lines.map(\.number) == [1, 2, 3])
        #expect(s.nextLine() == nil)
        let last = s.finish()
        #expect(last.map { String(decoding: $0.bytes, as: UTF8.self) } == "f" && last?.number == 4)
        #expect(s.finish() == nil)
    }

    @Test func longLinesAreCutAndFlagged() {
        var s = LineSplitter(maxLineBytes: 4)
        s.append(Array("1234\n12345".utf8))
        s.append(Array("678\nok\n".utf8))
        let a = s.nextLine()
        let b = s.nextLine()
        let c = s.nextLine()
        #expect(a?.bytes == Array("1234".utf8) && a?.truncated == false)
        #expect(b?.bytes == Array("1234".utf8) && b?.truncated == true)
        #expect(c?.bytes == Array("ok".utf8) && c?.truncated == false)
    }

    /// The buffer is reused from chunk to chunk: whatever the chunk sizes, the views handed out
    /// are the stream's lines, numbered, and a cut line is flagged.
    @Test func viewsAcrossEveryChunkSize() {
        let text = "first\n\nthird line\n0123456789abcdef\nlast\npartial"
        let expected: [(String, Bool)] = [
            ("first", false), ("", false), ("third line", false),
            ("0123456789", true), ("last", false),
        ]
        for size in 1...text.utf8.count {
            var s = LineSplitter(maxLineBytes: 10)
            var got: [(String, Int, Bool)] = []
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count, by: size) {
                s.append(bytes[start..<min(start + size, bytes.count)])
                while let line = s.nextSlice() {
                    got.append((String(decoding: line.bytes, as: UTF8.self), line.number, line.truncated))
                }
            }
            #expect(got.map(\.0) == expected.map(\.0), "chunks of \(size)")
            #expect(got.map(\.1) == Array(1...5), "chunks of \(size)")
            #expect(got.map(\.2) == expected.map(\.1), "chunks of \(size)")
            let last = s.finish()
            #expect(last?.bytes == Array("partial".utf8) && last?.number == 6, "chunks of \(size)")
        }
    }
}

extension LineSplitter.Line: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.number == b.number && a.bytes == b.bytes && a.truncated == b.truncated
    }
}
