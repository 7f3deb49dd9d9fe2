import Foundation
import Testing

/// What a test needs of the machine. A gate names exactly that, and a test it skips says which
/// part was missing (`make test` prints the reason and, under CI=true, fails on it).
enum Need: Sendable {
    /// gpsd played by gpsfake (gpsd, gpsd-clients).
    case gpsfake
    /// journalctl, and a journald listening or one to start (systemd).
    case journal
    /// Root: another user's credentials (setpriv), a mount, a network namespace.
    case root
    /// An executable at this path, and the Debian package that installs it.
    case tool(String, package: String)
    /// A file at this path, and the Debian package that installs it.
    case file(String, package: String)

    static let mosquitto: [Need] = [
        .tool("/usr/sbin/mosquitto", package: "mosquitto"),
        .tool("/usr/bin/mosquitto_sub", package: "mosquitto-clients"),
    ]
    static let nft: [Need] = [
        .tool("/usr/sbin/nft", package: "nftables"), .tool("/usr/bin/unshare", package: "util-linux"),
    ]

    /// Nil when this machine has it, else what is missing.
    var missing: String? {
        let fm = FileManager.default
        switch self {
        case .gpsfake:
            return fm.isExecutableFile(atPath: "/usr/bin/gpsfake") ? nil : "/usr/bin/gpsfake (gpsd-clients)"
        case .journal:
            if !fm.isExecutableFile(atPath: "/usr/bin/journalctl") { return "/usr/bin/journalctl (systemd)" }
            let journald =
                fm.fileExists(atPath: LiveHarness.journalSocket)
                || fm.isExecutableFile(atPath: LiveHarness.journaldBinary)
            return journald ? nil : "\(LiveHarness.journaldBinary) or a journal socket (systemd)"
        case .root:
            return getuid() == 0 ? nil : "root (uid \(getuid()))"
        case .tool(let path, let package):
            return fm.isExecutableFile(atPath: path) ? nil : "\(path) (\(package))"
        case .file(let path, let package):
            return fm.fileExists(atPath: path) ? nil : "\(path) (\(package))"
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where every need is met; a skip names what is missing.
    static func needs(_ needs: [Need]) -> Self {
        let missing = needs.compactMap(\.missing)
        let packages = needs.contains { if case .root = $0 { false } else { $0.missing != nil } }
        return .enabled(
            if: missing.isEmpty,
            Comment(
                rawValue: "needs " + missing.joined(separator: ", ")
                    + (packages ? "; scripts/deps.sh test installs the packages" : "")))
    }

    static func needs(_ needs: Need...) -> Self { .needs(needs) }

    /// The live daemon fed by gpsd through gpsfake, logging to the journal.
    static var needsLiveParts: Self { .needs(.gpsfake, .journal) }
}
