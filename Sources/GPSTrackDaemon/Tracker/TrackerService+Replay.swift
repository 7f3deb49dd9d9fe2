import GPSTrackCore
import GPSTrackJSON

/// Commands cannot be replayed (issue 38): an encrypted command carries OwnTracks' `tst`, which
/// must lie within `command_max_age_s` of the fix clock, and its nonce must not have been seen
/// within that span; then it counts against the channel's rate limit for commands run. Time is
/// the fixes' (the last accepted fix's time, advanced by the monotonic time since it came), so a
/// box whose system clock is wrong judges alike, and before the first fix nothing is let in.
extension TrackerService {
    /// Most nonces remembered: the rate limit lets far fewer in a window; a bound all the same.
    static let maxSeenNonces = 4096

    /// How many nonces are remembered (the fuzz harness checks a replay adds none).
    var seenNonceCount: Int { seenNonces.count }

    /// The fix clock now: the last accepted fix's time plus the time since it came; nil before
    /// the first fix.
    var fixClock: Double? {
        guard let t = session.tracker.lastAccepted?.time, let came = lastFixReceived else { return nil }
        return t + max(0, clock() - came)
    }

    /// Why a command may not run now (a replay, a `tst` missing or too far from the fix clock,
    /// the rate limit), or nil; a command let in is remembered by its nonce.
    func admissionProblem(_ inbound: InboundCommand, _ mqtt: any CommandChannel) -> String? {
        if let nonce = inbound.nonce {
            if let why = replayProblem(inbound.payload, nonce: nonce, maxAge: mqtt.config.commandMaxAgeS) {
                return why
            }
        }
        guard mqtt.commandLimits.run(now: clock()) else {
            return "rate limited: more than \(CommandLimiter.maxRuns) commands a minute"
        }
        if let nonce = inbound.nonce, let tst = Self.tst(inbound.payload) { seenNonces[nonce] = tst }
        return nil
    }

    /// Why an encrypted command is refused as stale or repeated, or nil.
    func replayProblem(_ payload: [UInt8], nonce: [UInt8], maxAge: Double) -> String? {
        guard let now = fixClock else {
            return "no fix yet: an encrypted command's tst is judged against the fixes' time"
        }
        seenNonces = seenNonces.filter { abs(now - $0.value) <= maxAge }
        guard let tst = Self.tst(payload) else {
            return "no tst: an encrypted command must carry its time (Unix seconds)"
        }
        guard abs(tst - now) <= maxAge else {
            let (at, off, max) = (Int(clamping: tst), Int(clamping: abs(tst - now)), Int(clamping: maxAge))
            return "tst \(at) is \(off) s \(tst < now ? "before" : "after") the fix clock (command_max_age_s = \(max))"
        }
        guard seenNonces[nonce] == nil else { return "replayed: this command (its nonce) ran already" }
        guard seenNonces.count < Self.maxSeenNonces else { return "too many commands to remember; try later" }
        return nil
    }

    /// A command's `tst`: finite Unix seconds from 0 to 1e11, else nil.
    static func tst(_ payload: [UInt8]) -> Double? {
        guard let value = try? JSONValue.parse(payload), let t = value["tst"]?.number, t.isFinite, t >= 0, t < 1e11
        else { return nil }
        return t
    }
}
