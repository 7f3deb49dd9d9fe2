// libFuzzer harness: the control socket's lines both ways, one line at a time as they are cut:
// the server's request parser, and gpstrackctl's reading of every reply type.
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackDaemon

func both(_ line: ArraySlice<UInt8>) {
    _ = ControlRequest.parse(line)
    guard let value = try? JSONValue.parse(Array(line)) else { return }
    _ = try? ReplyDecoder.decode(StatusReply.self, from: value)
    _ = try? ReplyDecoder.decode(FencesReply.self, from: value)
    _ = try? ReplyDecoder.decode(StateReply.self, from: value)
    _ = try? ReplyDecoder.decode(TripReply.self, from: value)
    _ = try? ReplyDecoder.decode(GuardReply.self, from: value)
    _ = try? ReplyDecoder.decode(AutoTripsReply.self, from: value)
    _ = try? ReplyDecoder.decode(StoredTripsReply.self, from: value)
    _ = try? ReplyDecoder.decode(StopsReply.self, from: value)
    _ = try? ReplyDecoder.decode(EventsReply.self, from: value)
    _ = try? ReplyDecoder.decode(StepsReply.self, from: value)
    _ = try? ReplyDecoder.decode(ExportReply.self, from: value)
    _ = try? ReplyDecoder.decode(ErrorReply.self, from: value)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var splitter = LineSplitter(maxLineBytes: ControlRequest.maxLineBytes)
    splitter.append(UnsafeBufferPointer(start: data, count: size))
    while let line = splitter.nextLine() { both(line.bytes[...]) }
    if let last = splitter.finish() { both(last.bytes[...]) }
    return 0
}
