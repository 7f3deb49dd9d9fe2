/// Credentials never go in plaintext off the box unless the configuration says so
/// (`allow_plaintext_credentials = yes`): a password to a broker without TLS, basic
/// authentication, a bearer token or a URL's userinfo over `http://`, each to a host that is not
/// loopback, stop the start with exit 78, naming the key.
extension ConfigParser {
    /// Whether `host` (a name or an address, IPv6 in brackets or not) is this machine's loopback.
    static func isLoopback(_ host: Substring) -> Bool {
        var h = host.lowercased()
        if h.hasPrefix("["), h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        if h.hasSuffix(".") { h = String(h.dropLast()) }
        if h == "localhost" || h.hasSuffix(".localhost") || h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// An `http://` URL's host (without port) and whether it carries userinfo; nil for https.
    static func plainHTTP(_ url: String) -> (host: Substring, userinfo: Bool)? {
        guard url.lowercased().hasPrefix("http://") else { return nil }
        let authority = url.dropFirst(7).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let at = authority.lastIndex(of: "@")
        var host = at.map { authority[authority.index(after: $0)...] } ?? authority
        if host.hasPrefix("[") {
            host = host.prefix { $0 != "]" } + "]"
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return (host, at != nil)
    }

    /// The first credential that would go in plaintext to another host, as an error at the
    /// line of the key that carries it.
    static func checkPlaintextCredentials(_ c: Configuration, seen: [String: Int], file: String) throws(ConfigError) {
        guard !c.allowPlaintextCredentials else { return }
        func refuse(_ key: String, _ what: String, _ host: Substring, _ fix: String) -> ConfigError {
            ConfigError(
                file: file, line: seen[key],
                message: "\(key): \(what) would go in plaintext to \(host) (\(fix)); "
                    + "set allow_plaintext_credentials = yes to send it so anyway")
        }
        if let host = c.mqtt.host, c.mqtt.passwordFile != nil, c.mqtt.caFile == nil, !isLoopback(Substring(host)) {
            throw refuse("mqtt_password_file", "the broker's password", Substring(host), "no mqtt_ca_file, so no TLS")
        }
        let uplinks: [(String, String?, [(String, Bool)])] = [
            ("traccar_url", c.traccar.url, []),
            ("webhook_url", c.webhook.url, [("webhook_token_file", c.webhook.tokenFile != nil)]),
            (
                "owntracks_http_url", c.owntracksHTTP.url,
                [("owntracks_http_password_file", c.owntracksHTTP.passwordFile != nil)]
            ),
        ]
        for (urlKey, url, secrets) in uplinks {
            guard let url, let (host, userinfo) = plainHTTP(url), !isLoopback(host) else { continue }
            if userinfo { throw refuse(urlKey, "the URL's user and password", host, "an http:// URL") }
            if let (key, _) = secrets.first(where: \.1) {
                throw refuse(key, "the credential", host, "\(urlKey) is http://, not https://")
            }
        }
    }
}
