/// Several receivers on one gpsd: their TPVs interleave in one stream, each naming its device.
/// The selector decides which one the tracker follows, by fix time alone:
/// - with a configured `device`, that one; the others are ignored (and counted);
/// - otherwise the first that reports, until another is better (a higher fix mode, else an
///   error estimate under half of the followed one's) for `betterForS` without a break, or
///   until the followed one has sent no usable fix for a third of `staleAfterS` (before the
///   tracker would call the fix lost) or is removed. Then it
///   fails over: the next fix comes from the other receiver and is judged by the tracker like
///   any other (a failover is no gap: the fix is not lost while another receiver reports).
public struct ReceiverSelector: Sendable {
    /// What the selector knows of one receiver.
    public struct Receiver: Sendable, Equatable {
        public var path: String
        /// The time of its last fix with a position (mode 2 or 3); nil before one.
        public var lastFix: Double?
        public var mode: Int
        /// Its last error estimate, metres; NaN when it gives none.
        public var eph: Double
        /// Fixes it sent that the tracker did not follow.
        public var ignored = 0
        /// Since when (fix time) it has been better than the followed one without a break.
        var betterSince: Double?
    }

    /// What to do with a fix.
    public enum Decision: Sendable, Equatable {
        /// From the followed receiver: on to the tracker.
        case follow
        /// From another one: counted, not tracked.
        case ignore
        /// The followed receiver changes to this fix's (`from` nil: none was followed).
        case failover(from: String?, to: String)
    }

    /// A better receiver must stay better this long before the selector moves to it (no flapping).
    public static let betterForS = 10.0

    public let pinned: String?
    public let staleAfterS: Double
    /// Every receiver seen, in the order first seen.
    public private(set) var receivers: [Receiver] = []
    /// The path of the receiver followed, nil before the first fix or after its removal.
    public private(set) var followed: String?

    public init(device: String?, staleAfterS: Double) {
        pinned = device
        self.staleAfterS = staleAfterS
    }

    /// Takes one fix (one epoch of one receiver); fixes without a device come from one unnamed
    /// receiver ("").
    public mutating func offer(_ fix: Fix) -> Decision {
        let path = fix.device ?? ""
        let i = index(of: path)
        if fix.mode >= 2, fix.latitude.isFinite, let t = fix.time {
            receivers[i].lastFix = max(receivers[i].lastFix ?? t, t)
        }
        receivers[i].mode = fix.mode
        receivers[i].eph = fix.horizontalError ?? .nan
        if let pinned {
            guard path == pinned else {
                receivers[i].ignored += 1
                return .ignore
            }
            if followed == nil { followed = path }
            return .follow
        }
        guard let current = followed, let f = receivers.firstIndex(where: { $0.path == current }) else {
            followed = path
            return .follow
        }
        if f == i { return .follow }
        let t = fix.time ?? receivers[i].lastFix ?? 0
        let stale = receivers[i].lastFix != nil && t - (receivers[f].lastFix ?? -.infinity) > staleAfterS / 3
        if Self.better(receivers[i], than: receivers[f]) {
            if receivers[i].betterSince == nil { receivers[i].betterSince = t }
        } else {
            receivers[i].betterSince = nil
        }
        let lasting = receivers[i].betterSince.map { t - $0 >= Self.betterForS } ?? false
        guard fix.mode >= 2, stale || lasting else {
            receivers[i].ignored += 1
            return .ignore
        }
        receivers[i].betterSince = nil
        followed = path
        return .failover(from: current, to: path)
    }

    /// A receiver is gone (gpsd deactivated it). Returns the one to follow now when the
    /// removed one was followed and another has a fix within `staleAfterS` of its last one
    /// (nil: none; `followed` is then nil).
    public mutating func remove(_ path: String) -> String? {
        guard let gone = receivers.firstIndex(where: { $0.path == path }) else { return nil }
        let removed = receivers.remove(at: gone)
        guard followed == path else { return nil }
        followed = nil
        let since = (removed.lastFix ?? -.infinity) - staleAfterS
        let next = receivers.filter { ($0.lastFix ?? -.infinity) >= since }
            .max { ($0.lastFix ?? 0) < ($1.lastFix ?? 0) }
        followed = next?.path
        return followed
    }

    /// Whether `a` is better than `b`: a higher fix mode, else an error estimate under half.
    static func better(_ a: Receiver, than b: Receiver) -> Bool {
        let ra = min(a.mode, 3)
        let rb = min(b.mode, 3)
        if ra != rb { return ra > rb }
        guard a.eph.isFinite else { return false }
        return !b.eph.isFinite || a.eph < b.eph / 2
    }

    private mutating func index(of path: String) -> Int {
        if let i = receivers.firstIndex(where: { $0.path == path }) { return i }
        receivers.append(Receiver(path: path, lastFix: nil, mode: 0, eph: .nan))
        return receivers.count - 1
    }
}
