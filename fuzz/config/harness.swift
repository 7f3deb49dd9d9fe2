// libFuzzer harness: the configuration file parser, on raw bytes as read from disk.
// Properties: a file that parses names only known keys as origins, each at a line of the file
// (`file:N` with N within its line count); parsing the same bytes again gives the same origins.
import GPSTrackCore
import GPSTrackProtocol

let known = Set(ConfigParser.keys)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let config = try? ConfigParser.parse(bytes, file: "fuzz.conf") else { return 0 }
    let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).count
    for (key, origin) in config.origins {
        precondition(known.contains(key), "origin for an unknown key \(key)")
        precondition(origin.hasPrefix("fuzz.conf:"), "origin \(origin) names another file")
        let n = Int(origin.dropFirst("fuzz.conf:".count)) ?? 0
        precondition(n >= 1 && n <= lines, "origin \(origin) beyond the file's \(lines) lines")
    }
    let again = try? ConfigParser.parse(bytes, file: "fuzz.conf")
    precondition(again?.origins == config.origins, "the same bytes parsed twice differ")
    return 0
}
