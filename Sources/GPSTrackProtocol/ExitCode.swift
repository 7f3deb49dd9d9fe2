/// Process exit codes, from sysexits(3).
public enum ExitCode: Int32, Sendable {
    case ok = 0
    /// A runtime error reported by the program (for example an error response).
    case failure = 1
    /// Bad command line.
    case usage = 64
    /// An input file could not be read.
    case noInput = 66
    /// A service is unavailable (the daemon or gpsd cannot be reached).
    case unavailable = 69
    /// An internal error.
    case software = 70
    /// A file the daemon must create (the control socket) could not be created.
    case cantCreate = 73
    /// An I/O error while writing output.
    case ioError = 74
    /// A configuration error (file or value).
    case config = 78
    // Appended, not sorted in: the cases before keep their order.
    /// The other end broke the protocol (a reply that does not read as its type).
    case protocolError = 76
}
