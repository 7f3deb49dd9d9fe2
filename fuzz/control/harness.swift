// libFuzzer harness: the control socket's lines both ways, one line at a time as they are cut:
// the server's request parser, and gpstrackctl's reading of every reply type.
// Properties: a request that parses is written back (`line`) as one that parses to a request
// written the same way (times are written to the millisecond, so the first parse may carry
// more); a reply that decodes, encoded, decodes to the same value and encodes the same again.
import GPSTrackJSON
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackDaemon

func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ value: JSONValue) {
    guard let first = try? ReplyDecoder.decode(type, from: value) else { return }
    let line = ReplyEncoder.encode(first)
    guard let back = try? ReplyDecoder.decode(type, line: line) else {
        fatalError("\(type) encoded does not decode: \(line)")
    }
    precondition(back == first, "\(type) changed through encode and decode: \(line)")
    precondition(ReplyEncoder.encode(back) == line, "\(type) encodes differently the second time: \(line)")
}

func both(_ line: ArraySlice<UInt8>) {
    if case .success(let request) = ControlRequest.parse(line) {
        let written = request.line
        guard case .success(let again) = ControlRequest.parse(Array(written.utf8)[...]) else {
            fatalError("request \(request) written as \(written) does not parse")
        }
        precondition(again.line == written, "request \(written) reads back as \(again.line)")
    }
    guard let value = try? JSONValue.parse(Array(line)) else { return }
    roundTrip(StatusReply.self, value)
    roundTrip(FencesReply.self, value)
    roundTrip(StateReply.self, value)
    roundTrip(TripReply.self, value)
    roundTrip(GuardReply.self, value)
    roundTrip(AutoTripsReply.self, value)
    roundTrip(StoredTripsReply.self, value)
    roundTrip(StopsReply.self, value)
    roundTrip(EventsReply.self, value)
    roundTrip(StepsReply.self, value)
    roundTrip(ExportReply.self, value)
    roundTrip(ErrorReply.self, value)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var splitter = LineSplitter(maxLineBytes: ControlRequest.maxLineBytes)
    splitter.append(UnsafeBufferPointer(start: data, count: size))
    while let line = splitter.nextLine() { both(line.bytes[...]) }
    if let last = splitter.finish() { both(last.bytes[...]) }
    return 0
}
