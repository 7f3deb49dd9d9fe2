/// The map page's tiles (gpstrackd.conf(5), `map_tiles_url`; `gpstrackctl export --tiles`): a
/// Leaflet URL template with `{z}`, `{x}` and `{y}` in its path or query, over http or https,
/// written into the page's Content-Security-Policy and script. It is read strictly: no
/// subdomain (`{s}`) or other placeholder in the host, no quote, space, angle bracket or
/// backslash anywhere, at most 512 bytes.
public struct MapTiles: Sendable, Equatable {
    /// The template, as given.
    public let url: String
    /// `scheme://host[:port]`: the one place the page may fetch from (its `img-src`).
    public let origin: String
    /// What the tiles' page says under the map (their licence).
    public var attribution: String

    /// OpenStreetMap's credit, for tiles made from its data.
    public static let osmAttribution = "© OpenStreetMap contributors"
    public static let maxAttributionBytes = 200

    /// `none` is no tiles (nil inside the success); otherwise the template, or why it is refused.
    public static func parse(_ text: String, attribution: String = osmAttribution) -> Result<MapTiles?, Refusal> {
        if text == "none" { return .success(nil) }
        guard text.utf8.count <= 512 else { return .failure(Refusal("a tile URL of at most 512 bytes")) }
        let scheme: String
        if text.hasPrefix("https://") {
            scheme = "https://"
        } else if text.hasPrefix("http://") {
            scheme = "http://"
        } else {
            return .failure(Refusal("an http:// or https:// tile URL with {z}, {x} and {y}, or none"))
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#@!$&()*+,;=%{}")
        guard text.allSatisfy(allowed.contains) else {
            return .failure(Refusal("a tile URL without quotes, spaces, angle brackets or backslashes"))
        }
        let rest = text.dropFirst(scheme.count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !host.contains("{"), !host.contains("@") else {
            return .failure(Refusal("a tile URL whose host is a plain name or address (no {s}, no user)"))
        }
        for p in ["{z}", "{x}", "{y}"] where !text.contains(p) {
            return .failure(Refusal("a tile URL with {z}, {x} and {y}: \(p) is missing"))
        }
        let placeholders = text.split(separator: "{", omittingEmptySubsequences: false).dropFirst().map {
            $0.prefix { $0 != "}" }
        }
        guard placeholders.allSatisfy({ ["z", "x", "y"].contains($0) }) else {
            return .failure(Refusal("a tile URL whose only placeholders are {z}, {x} and {y}"))
        }
        guard attribution.utf8.count <= maxAttributionBytes, !attribution.contains(where: \.isNewline) else {
            return .failure(Refusal("an attribution of one line, at most \(maxAttributionBytes) bytes"))
        }
        return .success(MapTiles(url: text, origin: scheme + host, attribution: attribution))
    }

    /// Why a value is refused: what was expected.
    public struct Refusal: Error, Sendable, Equatable {
        public let expected: String
        init(_ expected: String) { self.expected = expected }
    }
}
