#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call and its errno.
public struct ErrnoError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    public var description: String { "\(call): \(String(cString: strerror(code)))" }
}

/// Runs a system call, retrying on EINTR; a negative result throws its errno.
@discardableResult
public func syscall<T: BinaryInteger>(_ name: String, _ body: () -> T) throws(ErrnoError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw ErrnoError(call: name, code: code)
    }
}
