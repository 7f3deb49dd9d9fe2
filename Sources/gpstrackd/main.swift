#if canImport(Glibc)
import Glibc
#endif
import GPSTrackCore
import GPSTrackDaemon

let version = "0.1.0"
let usage = """
    usage: gpstrackd replay [OPTIONS] LOG     replay a gpsd JSON log (see 'gpstrackd replay --help')
           gpstrackd --help | --version
    """

let out = OutputWriter(fd: STDOUT_FILENO)
let err = OutputWriter(fd: STDERR_FILENO)

@MainActor func finish(_ code: ExitCode) -> Never {
    try? out.flush()
    try? err.flush()
    exit(code.rawValue)
}

@MainActor func fail(_ code: ExitCode, _ message: String) -> Never {
    try? err.writeLine(message)
    finish(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "replay":
    do {
        let replay = try Replay(arguments: Array(arguments.dropFirst()))
        finish(replay.run(out: out, err: err))
    } catch .help {
        try? out.writeLine(Replay.usage)
        finish(.ok)
    } catch .usage(let message) {
        fail(.usage, "gpstrackd replay: \(message)\n\(Replay.usage)")
    } catch .config(let error) {
        fail(.config, "gpstrackd: \(error)")
    } catch .fences(let error) {
        fail(.config, "gpstrackd: fences refused: \(error)")
    }
case "--help", "-h":
    try? out.writeLine(usage)
    finish(.ok)
case "--version":
    try? out.writeLine("gpstrackd \(version)")
    finish(.ok)
case nil:
    fail(.usage, "gpstrackd: the live daemon is not part of this build yet; use 'gpstrackd replay'\n\(usage)")
default:
    fail(.usage, "gpstrackd: unknown command '\(arguments[0])'\n\(usage)")
}
