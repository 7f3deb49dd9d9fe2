// libFuzzer harness: the configuration file parser, on raw bytes as read from disk.
import GPSTrackCore
import GPSTrackProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? ConfigParser.parse(Array(UnsafeBufferPointer(start: data, count: size)), file: "fuzz.conf")
    return 0
}
