// libFuzzer harness: the broker's commands (`<base>/cmd`) as MQTTCommand.parse reads them.
// Beyond not crashing: a command read is written in its canonical form and that form reads back
// to the same command; a refusal has a reason and echoes at most a bounded, printable action.
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackDaemon

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let payload = Array(UnsafeBufferPointer(start: data, count: size))
    switch MQTTCommand.parse(payload) {
    case .success(let command):
        guard case .success(let again) = MQTTCommand.parse(Array(command.json.utf8)), again == command else {
            fatalError("\(command) does not read back from its canonical form \(command.json)")
        }
        precondition(MQTTConfig.commandActions.contains(command.name) || command.name == .reportSteps)
    case .failure(let refusal):
        precondition(!refusal.reason.isEmpty && refusal.reason.unicodeScalars.count < 600, "reason: \(refusal.reason)")
        if let action = refusal.action {
            precondition(action.unicodeScalars.count <= 64 && !action.unicodeScalars.contains { $0.value < 0x20 },
                         "echoed action: \(action.debugDescription)")
        }
    }
    return 0
}
