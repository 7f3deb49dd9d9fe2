import GPSTrackCore
import GPSTrackProtocol
import Testing

/// Which of several receivers on one gpsd the tracker follows.
@Suite struct ReceiverSelectorTests {
    static func fix(_ s: Double, _ device: String, mode: Int = 3, eph: Double = 5) -> Fix {
        var f = FixFactory.at(s, eph: eph, mode: mode)
        f.device = device
        return f
    }

    @Test func aConfiguredDeviceIsFollowedAndTheOthersIgnoredAndCounted() {
        var s = ReceiverSelector(device: "/dev/b", staleAfterS: 15)
        #expect(s.offer(Self.fix(0, "/dev/a", eph: 2)) == .ignore)
        #expect(s.offer(Self.fix(0, "/dev/b", eph: 20)) == .follow)
        for k in 1...30 {
            #expect(s.offer(Self.fix(Double(k), "/dev/a", eph: 2)) == .ignore, "better, but not the one configured")
        }
        #expect(s.followed == "/dev/b")
        #expect(s.receivers.map(\.path) == ["/dev/a", "/dev/b"])
        #expect(s.receivers[0].ignored == 31 && s.receivers[1].ignored == 0)
    }

    @Test func aBetterReceiverIsFollowedOnlyOnceItStaysBetter() {
        var s = ReceiverSelector(device: nil, staleAfterS: 15)
        #expect(s.offer(Self.fix(0, "/dev/a", eph: 20)) == .follow, "the first to report")
        var switched: Double?
        for k in 0...30 {
            let t = Double(k)
            _ = s.offer(Self.fix(t, "/dev/a", eph: 20))
            // /dev/b is better (eph 6 < 20 / 2), but for 3 s in every 4 only: no switch then.
            let eph = k < 12 && k % 4 == 3 ? 15.0 : 6.0
            if case .failover(let from, let to) = s.offer(Self.fix(t + 0.5, "/dev/b", eph: eph)) {
                #expect(from == "/dev/a" && to == "/dev/b")
                switched = switched ?? t
            }
        }
        // Better without a break from second 12 on: the switch after betterForS, once.
        #expect(switched == 12 + ReceiverSelector.betterForS)
        #expect(s.followed == "/dev/b")
        // A slightly better /dev/a (eph 4 against 6) is not enough to switch back.
        for k in 31...60 {
            #expect(s.offer(Self.fix(Double(k), "/dev/a", eph: 4)) == .ignore)
            #expect(s.offer(Self.fix(Double(k) + 0.5, "/dev/b", eph: 6)) == .follow)
        }
    }

    @Test func aReceiverThatStopsReportingIsFailedOverBeforeTheFixWouldBeLost() throws {
        var s = ReceiverSelector(device: nil, staleAfterS: 15)
        for k in 0...10 {
            #expect(s.offer(Self.fix(Double(k), "/dev/a")) == .follow)
            #expect(s.offer(Self.fix(Double(k) + 0.5, "/dev/b")) == .ignore)
        }
        // /dev/a reports no fix from second 11 on; /dev/b goes on.
        var failedOver: Double?
        for k in 11...30 {
            _ = s.offer(Self.fix(Double(k), "/dev/a", mode: 1))
            if case .failover = s.offer(Self.fix(Double(k) + 0.5, "/dev/b")) {
                failedOver = failedOver ?? Double(k) + 0.5
            }
        }
        let at = try #require(failedOver)
        #expect(at - 10 > 15 / 3 && at - 10 < 15, "after a third of stale_after_s, before the fix is lost: \(at)")
    }

    @Test func removingTheFollowedReceiverFailsOverToOneStillReporting() {
        var s = ReceiverSelector(device: nil, staleAfterS: 15)
        _ = s.offer(Self.fix(0, "/dev/a"))
        _ = s.offer(Self.fix(0.5, "/dev/b"))
        #expect(s.remove("/dev/b") == nil, "not the one followed")
        #expect(s.followed == "/dev/a" && s.receivers.map(\.path) == ["/dev/a"])
        _ = s.offer(Self.fix(1.5, "/dev/b"))
        #expect(s.remove("/dev/a") == "/dev/b")
        #expect(s.followed == "/dev/b")
        #expect(s.remove("/dev/b") == nil, "none left")
        #expect(s.followed == nil)
    }
}
