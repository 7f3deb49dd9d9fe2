// libFuzzer harness: gpsd's stream as the daemon reads it (LineSplitter, then JSONLineCheck,
// gps_unpack and GPSDDecoder for each line). A hang (libgps's parser looping) is a timeout.
// Property, a differential: JSONLineCheck accepts exactly the lines the JSON parser reads as
// one object within the check's limits (length, nesting, and DEL, which it refuses as a control
// character where JSON allows it raw in a string), and its compact form reads as the same value;
// only a number beyond Double's range (well-formed JSON, refused by the parser) is let through.
// A second differential: the decoder's own TPV reader (`plainTPV`) reads every line as libgps
// alone reads it.
import GPSTrackJSON
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackDaemon

nonisolated(unsafe) let decoder = GPSDDecoder()
/// libgps reads every line: the reference for `plainTPV`.
nonisolated(unsafe) let libgps: GPSDDecoder = {
    let d = GPSDDecoder()
    d.readsPlainTPV = false
    return d
}()

func decodedAlike(_ line: ArraySlice<UInt8>, truncated: Bool) {
    let a = decoder.decode(line, truncated: truncated)
    let b = libgps.decode(line, truncated: truncated)
    precondition(a.readsAs(b), "the TPV reader and libgps differ: \(a) against \(b): \(Array(line))")
}

func depth(_ v: JSONValue) -> Int {
    switch v {
    case .array(let a): 1 + (a.map(depth).max() ?? 0)
    case .object(let o): 1 + (o.values.map(depth).max() ?? 0)
    default: 0
    }
}

func differential(_ line: ArraySlice<UInt8>) {
    let checked = JSONLineCheck.check(line, maxBytes: GPSDDecoder.maxLineBytes)
    var parsed: JSONValue?
    var outOfRange = false
    do { parsed = try JSONValue.parse(Array(line)) } catch { outOfRange = error.reason == "number out of range" }
    let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    // The reader's way, with no copy of a compact line: the same verdict, and `.asGiven` only
    // for a line that is its own compact form.
    var buffers = JSONLineCheck.Buffers()
    let lazily = JSONLineCheck.check(line, maxBytes: GPSDDecoder.maxLineBytes, reusing: &buffers, copyCompact: false)
    if case .asGiven = lazily {
        precondition(checked == .object(Array(line)), "taken as given, but not compact: \(Array(line))")
    } else {
        precondition(lazily == checked, "the check without a copy differs: \(Array(line))")
    }
    switch checked {
    case .object(let compact):
        if outOfRange { return }
        guard case .object? = parsed else { fatalError("the check passed what the parser refuses: \(Array(line))") }
        precondition((try? JSONValue.parse(compact)) == parsed, "the compact form reads differently: \(Array(line))")
    case .asGiven:
        fatalError("check copies every object it passes: \(Array(line))")
    case .blank:
        precondition(blank, "called blank: \(Array(line))")
    case .malformed:
        if case .object? = parsed, let parsed, depth(parsed) <= JSONLineCheck.maxDepth, !line.contains(0x7F) {
            fatalError("the check refused an object the parser reads, \(depth(parsed)) deep: \(Array(line))")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var splitter = LineSplitter(maxLineBytes: GPSDDecoder.maxLineBytes)
    splitter.append(UnsafeBufferPointer(start: data, count: size))
    // As the live reader takes them: views into the splitter's buffer.
    while let line = splitter.nextSlice() {
        if !line.truncated { differential(line.bytes) }
        decodedAlike(line.bytes, truncated: line.truncated)
    }
    if let last = splitter.finish() {
        if !last.truncated { differential(last.bytes[...]) }
        decodedAlike(last.bytes[...], truncated: last.truncated)
    }
    return 0
}
