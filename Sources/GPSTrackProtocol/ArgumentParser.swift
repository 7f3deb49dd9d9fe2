/// A small command-line parser: `--name value`, `--name=value`, boolean flags, `--` to end
/// options, and positionals (`-` is a positional, meaning standard input).
public struct ArgumentParser: Sendable {
    /// A bad command line, with a message for the user.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// The parsed command line.
    public struct Result: Sendable, Equatable {
        public var options: [String: String] = [:]
        public var flags: Set<String> = []
        public var positionals: [String] = []
    }

    /// Options that take a value, without their leading `--`.
    public var valued: Set<String>
    /// Options that take no value.
    public var boolean: Set<String>

    public init(valued: Set<String>, boolean: Set<String>) {
        self.valued = valued
        self.boolean = boolean
    }

    public func parse(_ arguments: [String]) throws(UsageError) -> Result {
        var result = Result()
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if optionsEnded || !arg.hasPrefix("--") {
                if !optionsEnded && arg.hasPrefix("-") && arg != "-" {
                    throw UsageError("unknown option '\(arg)'")
                }
                result.positionals.append(arg)
                continue
            }
            if arg == "--" {
                optionsEnded = true
                continue
            }
            var name = String(arg.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if boolean.contains(name) {
                guard value == nil else { throw UsageError("option '--\(name)' takes no value") }
                result.flags.insert(name)
            } else if valued.contains(name) {
                if value == nil {
                    guard i < arguments.count else { throw UsageError("option '--\(name)' needs a value") }
                    value = arguments[i]
                    i += 1
                }
                guard result.options[name] == nil else { throw UsageError("option '--\(name)' given twice") }
                result.options[name] = value
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
        return result
    }
}
