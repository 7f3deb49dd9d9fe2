import CSystemd

/// systemd's notification protocol (`sd_notify`): READY, STATUS, WATCHDOG, STOPPING. Without
/// `NOTIFY_SOCKET` (not run by systemd) every call is a no-op.
public enum Notifier {
    public static func ready() { send("READY=1") }
    public static func stopping() { send("STOPPING=1") }
    public static func watchdog() { send("WATCHDOG=1") }

    /// A one-line status for `systemctl status`.
    public static func status(_ text: String) {
        send("STATUS=" + text.filter { $0 != "\n" })
    }

    /// The watchdog interval the unit asks for (`WatchdogSec=`), in seconds, or nil.
    public static func watchdogInterval() -> Double? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return Double(usec) / 1_000_000
    }

    private static func send(_ state: String) {
        _ = sd_notify(0, state)
    }
}
