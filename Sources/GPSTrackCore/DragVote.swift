/// The anchor watch's evidence that the boat is outside a circle: the last `window` seconds of
/// fixes vote, each by its distance from the anchor, and three quarters of the vote beyond
/// the circle decide it.
///
/// Why a vote, and why not "beyond by more than the fix's error": gpsd's `eph` is a 95 % bound
/// that it usually derives from the HDOP and a fixed range error, 20-30 m for a receiver that
/// is truly within 3 m, so subtracting it put the alarm 30 m past the circle. A receiver's error
/// is mostly a slow wander (minutes), which no number of fixes averages away; what a short
/// window does remove is what comes and goes within seconds: white noise and single multipath
/// jumps (a quarter of the window may be wrong either way without changing the verdict). The
/// swing never votes the boat out: the rode holds it within the scope, and the margin between
/// scope and radius (`anchor_margin_m`, or the radius given) is what the wander must not cross.
/// The fixes' own error estimates weigh their votes against each other (a fix twice as vague
/// counts a quarter), so a uniformly pessimistic `eph` changes nothing.
struct DragVote: Sendable {
    /// The share of the vote that decides.
    static let quorum = 0.75
    /// At most this many fixes are kept (a 10 Hz receiver and an hour's window): the oldest go.
    static let capacity = 4096

    private struct Ballot: Sendable {
        var time: Double
        var distanceM: Double
        var weight: Double
    }

    private var ballots: [Ballot] = []
    private var head = 0

    /// The fixes in the window.
    var count: Int { ballots.count - head }

    /// Adds a fix, and forgets those older than `window` seconds before it (all of them when
    /// time went back: a replay or a clock step starts the vote afresh).
    mutating func add(time: Double, distanceM: Double, errorM: Double, window: Double) {
        if let last = ballots.last, time < last.time { self = DragVote() }
        let e = max(errorM.isFinite ? errorM : 0, 0.5)
        ballots.append(Ballot(time: time, distanceM: distanceM, weight: 1 / (e * e)))
        // The newest always votes (a window of 0 s is that one fix).
        while head < ballots.count - 1, ballots[head].time <= time - window || count > Self.capacity { head += 1 }
        // Removing from the front is linear: done once half the array is spent.
        if head > 64, head * 2 > ballots.count {
            ballots.removeFirst(head)
            head = 0
        }
    }

    /// Whether every fix of the window is beyond `limitM` (the warning's stricter vote).
    func all(beyond limitM: Double) -> Bool {
        count > 0 && ballots[head...].allSatisfy { $0.distanceM > limitM }
    }

    /// The share of the window's weight beyond `limitM` (0 with no fix).
    func share(beyond limitM: Double) -> Double {
        var out = 0.0
        var all = 0.0
        for b in ballots[head...] {
            all += b.weight
            if b.distanceM > limitM { out += b.weight }
        }
        return all > 0 ? out / all : 0
    }
}
