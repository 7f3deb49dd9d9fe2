// libFuzzer harness: gpsd's stream as the daemon reads it (LineSplitter, then JSONLineCheck,
// gps_unpack and GPSDDecoder for each line). A hang (libgps's parser looping) is a timeout.
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackDaemon

nonisolated(unsafe) let decoder = GPSDDecoder()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var splitter = LineSplitter(maxLineBytes: GPSDDecoder.maxLineBytes)
    splitter.append(UnsafeBufferPointer(start: data, count: size))
    // As the live reader takes them: views into the splitter's buffer.
    while let line = splitter.nextSlice() { _ = line.truncated ? GPSDDecoder.tooLong : decoder.decode(line.bytes) }
    if let last = splitter.finish() { _ = decoder.decode(last) }
    return 0
}
