import CCrash
import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

// A fatal signal leaves the crashing thread's backtrace on stderr: the journal under systemd
// (JOURNAL_STREAM set), where each line is logged at `crit`.
gpstrack_install_crash_handler(getenv("JOURNAL_STREAM") != nil ? 1 : 0)

// Signals first: SIGTERM, SIGINT and SIGHUP are set to SIG_IGN (no mask is set), so one that
// arrives before the daemon makes its Dispatch signal sources (SignalStream.make, the first
// thing Daemon.run does, before the socket or READY) is ignored, not fatal; from then on they
// reach it only through those sources, as an AsyncStream.
SignalStream.blockHandledSignals()

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
if arguments.first == "-h" {
    try? out.writeLine(DaemonOptions.usage)
    finish(.ok)
}
// The offline commands end at once on SIGTERM or SIGINT, whatever they are doing.
if arguments.first == "replay" || arguments.first == "replay-accel" { SignalStream.restoreDefaultActions() }
if arguments.first == "replay" {
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
    } catch .fences(let error, let origin) {
        fail(.config, "gpstrackd: \(origin)fences refused: \(error)")
    }
}

if arguments.first == "replay-accel" {
    do {
        let replay = try ReplayAccel(arguments: Array(arguments.dropFirst()))
        finish(replay.run(out: out, err: err))
    } catch .help {
        try? out.writeLine(ReplayAccel.usage)
        finish(.ok)
    } catch {
        if case .usage(let message) = error { fail(.usage, "gpstrackd replay-accel: \(message)\n\(ReplayAccel.usage)") }
        fail(.usage, "gpstrackd replay-accel: \(error)")
    }
}

let options: DaemonOptions
do {
    options = try DaemonOptions(arguments: arguments)
} catch .help {
    try? out.writeLine(DaemonOptions.usage)
    finish(.ok)
} catch .version {
    try? out.writeLine("gpstrackd \(Daemon.version)")
    finish(.ok)
} catch .usage(let message) {
    fail(.usage, "gpstrackd: \(message)\n\(DaemonOptions.usage)")
} catch .config(let error) {
    fail(.config, "gpstrackd: \(error)")
} catch .fences(let error, let origin) {
    fail(.config, "gpstrackd: \(origin)fences refused: \(error)")
}
finish(await Daemon.run(options))
