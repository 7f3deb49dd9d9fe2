/// A URL as it may be shown (an error message, the broker's `dump`): without its userinfo
/// (`user:password@`), its query and its fragment, where tokens and keys travel. With
/// `path: false` the path goes too: a Home Assistant webhook id or an ntfy topic is the secret
/// there.
public enum URLText {
    public static func shown(_ url: String, path keepPath: Bool = true) -> String {
        var rest = Substring(url)
        var scheme: Substring = ""
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            let after = rest.index(colon, offsetBy: 3)
            scheme = rest[..<after]
            rest = rest[after...]
        }
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        rest = rest[authority.endIndex...]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        let tail = rest[path.endIndex...]
        var out = String(scheme) + authority
        out += keepPath || path.isEmpty || path == "/" ? String(path) : "/..."
        if tail.hasPrefix("?") { out += "?..." } else if tail.hasPrefix("#") { out += "#..." }
        return out
    }
}
