import Foundation
import GPSTrackClient

/// gpstrackctl's `ControlClient` as the tests use it: text sent as it is (partial or hostile
/// requests included), a receive timeout so a missing answer fails the test instead of hanging
/// it, replies read as JSON objects.
// @unchecked: one test's client, used by one task at a time.
final class SocketClient: @unchecked Sendable {
    private let client: ControlClient

    init(path: String, timeout: Int = 10) throws {
        do { client = try ControlClient(path: path, receiveTimeoutS: timeout) } catch {
            throw POSIXError(POSIXErrorCode(rawValue: error.code) ?? .EIO)
        }
    }

    var fd: Int32 { client.fd }

    /// True once the peer has hung up (a read returned 0), as opposed to a receive timeout.
    var sawEOF: Bool { client.sawEOF }

    func send(_ text: String) { client.sendRaw(Array(text.utf8)) }

    /// The next line; nil at EOF or after the timeout.
    func readLine() -> String? { client.readLine() }

    func request(_ line: String) -> [String: Any]? {
        client.send(line)
        return readLine().flatMap(ExecutableRunner.json)
    }
}
