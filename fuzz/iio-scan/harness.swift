// libFuzzer harness: IIO scan element types (`scan_elements/*_type`, read from sysfs, where a
// driver or a hostile mount decides the text) and decoding a record laid out with them.
// Input: up to three type lines, then the bytes of one record.
import GPSTrackCore
import GPSTrackProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var lines: [String] = []
    var rest = bytes[...]
    while lines.count < 3, let nl = rest.firstIndex(of: 10) {
        lines.append(String(decoding: rest[..<nl], as: UTF8.self))
        rest = rest[(nl + 1)...]
    }
    var channels: [IIOScanLayout.Channel] = []
    for (i, line) in lines.enumerated() {
        guard let type = IIOScanType.parse(line) else { continue }
        // What the parser accepts is what the kernel could write.
        precondition([8, 16, 32, 64].contains(type.storageBits) && type.realBits >= 1
                     && type.shift + type.realBits <= type.storageBits && (1...16).contains(type.repeatCount))
        channels.append(IIOScanLayout.Channel(name: "in_accel_\(i)", index: i, type: type))
    }
    guard let layout = IIOScanLayout(channels: channels) else { return 0 }
    var record = Array(rest.prefix(layout.recordBytes))
    if record.count < layout.recordBytes { record += [UInt8](repeating: 0, count: layout.recordBytes - record.count) }
    record.withUnsafeBytes { raw in
        for c in layout.channels {
            precondition(c.offset + c.type.bytes <= layout.recordBytes)
            _ = c.type.value(in: raw, at: c.offset)
        }
    }
    return 0
}
