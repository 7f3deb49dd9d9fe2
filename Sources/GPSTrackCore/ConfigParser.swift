/// Parses `key = value` configuration text (`#` starts a comment) into a `Configuration`.
/// Unknown keys, repeated keys and bad values are errors naming `file:line`.
public enum ConfigParser {
    typealias Setter = @Sendable (inout Configuration, String) -> String?

    /// Longest line accepted, in bytes.
    public static let maxLineBytes = 4096

    /// Parses `text`, read from `file`, on top of `base`.
    public static func parse(_ text: String, file: String, base: Configuration = Configuration()) throws(ConfigError)
        -> Configuration
    {
        try parse(Array(text.utf8), file: file, base: base)
    }

    /// Parses the bytes of a configuration file, read from `file`, on top of `base`. Lines
    /// end with LF or CRLF, and the last may have no line end; a NUL byte, invalid UTF-8, a
    /// control character (a bare CR among them) or a line over `maxLineBytes` is an error
    /// naming `file:line`.
    public static func parse(_ bytes: [UInt8], file: String, base: Configuration = Configuration()) throws(ConfigError)
        -> Configuration
    {
        var config = base
        var seen: [String: Int] = [:]
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            let newline = bytes[start...].firstIndex(of: 10) ?? bytes.count
            var raw = bytes[start..<newline]
            start = newline + 1
            if raw.last == 13 { raw = raw.dropLast() }
            func fail(_ message: String) -> ConfigError { ConfigError(file: file, line: lineNumber, message: message) }
            guard raw.count <= maxLineBytes else { throw fail("line longer than \(maxLineBytes) bytes") }
            guard !raw.contains(0) else { throw fail("NUL byte in the line") }
            guard let text = String(validating: raw, as: UTF8.self) else { throw fail("not UTF-8 text") }
            if let c = text.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
                throw fail(
                    "control character U+\(String(c.value, radix: 16, uppercase: true).leftPadded(4)) in the line")
            }
            var line = Substring(text)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let content = trim(line)
            if content.isEmpty { continue }
            guard let eq = content.firstIndex(of: "=") else { throw fail("expected 'key = value', got '\(content)'") }
            let key = trim(content[..<eq])
            let value = trim(content[content.index(after: eq)...])
            guard let setter = table.first(where: { $0.0 == key })?.1 else {
                throw fail("unknown key '\(key)' (known: \(keys.joined(separator: ", ")))")
            }
            if let first = seen[key] { throw fail("'\(key)' repeats line \(first)") }
            seen[key] = lineNumber
            guard !value.isEmpty else { throw fail("'\(key)' has no value") }
            if let problem = setter(&config, value) ?? beyondBound(key, value) { throw fail("\(key): \(problem)") }
            config.origins[key] = "\(file):\(lineNumber)"
        }
        if config.tracker.guardOn, config.tracker.tripMode == .manual {
            throw ConfigError(
                file: file, line: seen["guard"] ?? seen["trip_mode"],
                message: "guard = on needs trip_mode = auto (the guard arms at stops)")
        }
        try checkUplinks(config, seen: seen, file: file)
        try checkPlaintextCredentials(config, seen: seen, file: file)
        try checkHA(config, seen: seen, file: file)
        return config
    }

    /// Sets one tunable from a flag's value (`--distance-filter 5`), with the file's checks.
    public static func apply(key: String, value: String, to config: inout Configuration, source: String)
        throws(ConfigError)
    {
        guard let setter = table.first(where: { $0.0 == key })?.1 else {
            throw ConfigError(file: source, line: nil, message: "unknown key '\(key)'")
        }
        if let problem = setter(&config, value) ?? beyondBound(key, value) {
            throw ConfigError(file: source, line: nil, message: problem)
        }
    }

    /// Parses `HOST:PORT`, `[v6]:PORT` or a bare `HOST` (port 2947).
    public static func parseHostPort(_ text: String) -> (String, Int)? {
        var host = Substring(text)
        var portText: Substring = "2947"
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
            if host.contains(":") { return nil }
        }
        guard !host.isEmpty, let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    static func number(_ path: WritableKeyPath<TrackerConfig, Double> & Sendable, min: Double, inclusive: Bool)
        -> Setter
    {
        return { config, text in
            guard let v = Double(text), v.isFinite else { return "expected a number, got '\(text)'" }
            if inclusive ? v < min : v <= min {
                return "must be \(inclusive ? ">=" : ">") \(Int(clamping: min)), got \(text)"
            }
            config.tracker[keyPath: path] = v
            return nil
        }
    }

    /// A number of `unit` for a daemon-level key, at least `atLeast` (or above `above`).
    static func decimal(
        _ path: WritableKeyPath<Configuration, Double> & Sendable, atLeast: Double? = nil,
        above: Double? = nil, _ unit: String
    ) -> Setter {
        return { config, text in
            let bound = atLeast.map { ">= \(Int(clamping: $0))" } ?? above.map { "> \(Int(clamping: $0))" } ?? ""
            guard let v = Double(text), v.isFinite, atLeast.map({ v >= $0 }) ?? true, above.map({ v > $0 }) ?? true
            else {
                return "expected a number of \(unit) \(bound), got '\(text)'"
            }
            config[keyPath: path] = v
            return nil
        }
    }

    /// A whole number within `range` for a daemon-level key.
    static func whole(_ path: WritableKeyPath<Configuration, Int> & Sendable, _ range: ClosedRange<Int>)
        -> Setter
    {
        return { config, text in
            guard let v = Int(text), range.contains(v) else {
                let bound =
                    range.upperBound == Int.max
                    ? ">= \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
                return "expected a whole number \(bound), got '\(text)'"
            }
            config[keyPath: path] = v
            return nil
        }
    }

    private static func trim(_ s: Substring) -> String {
        var t = s
        while let f = t.first, f == " " || f == "\t" { t.removeFirst() }
        while let l = t.last, l == " " || l == "\t" { t.removeLast() }
        return String(t)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
