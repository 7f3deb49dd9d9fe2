import Testing
import GPSTrackCore

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
        let a = s.nextLine(), b = s.nextLine(), c = s.nextLine()
        #expect(a?.bytes == Array("1234".utf8) && a?.truncated == false)
        #expect(b?.bytes == Array("1234".utf8) && b?.truncated == true)
        #expect(c?.bytes == Array("ok".utf8) && c?.truncated == false)
    }
}

extension LineSplitter.Line: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.number == b.number && a.bytes == b.bytes && a.truncated == b.truncated }
}
