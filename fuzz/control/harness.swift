// libFuzzer harness: the control socket's request parser, one request line at a time as the
// server cuts them.
import GPSTrackCore
import GPSTrackDaemon

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var splitter = LineSplitter(maxLineBytes: ControlRequest.maxLineBytes)
    splitter.append(UnsafeBufferPointer(start: data, count: size))
    while let line = splitter.nextLine() { _ = ControlRequest.parse(line.bytes[...]) }
    if let last = splitter.finish() { _ = ControlRequest.parse(last.bytes[...]) }
    return 0
}
