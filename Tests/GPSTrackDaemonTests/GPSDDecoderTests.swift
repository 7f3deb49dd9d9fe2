import GPSTrackCore
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

@Suite struct GPSDDecoderTests {
    let decoder = GPSDDecoder()

    func decode(_ s: String) -> GPSDDecoder.Record { decoder.decode(Array(s.utf8)[...]) }

    @Test func decodesATPV() throws {
        let line =
            #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-03-14T08:02:38.000Z","ept":0.005,"lat":31.2304,"lon":121.4737,"altHAE":12.5,"altMSL":20.25,"epx":3.1,"epy":4.2,"eph":5.5,"speed":1.25,"track":35.5,"climb":-0.1}"#
        guard case .tpv(let fix) = decode(line) else {
            Issue.record("not a TPV")
            return
        }
        #expect(fix.mode == 3)
        #expect(fix.time == 1_773_475_358)
        #expect(fix.latitude == 31.2304 && fix.longitude == 121.4737)
        #expect(fix.altitude == 20.25, "above sea level: altMSL")
        #expect(fix.altitudeHAE == 12.5)
        #expect(fix.eph == 5.5 && fix.epx == 3.1 && fix.epy == 4.2)
        #expect(fix.speed == 1.25 && fix.track == 35.5 && fix.climb == -0.1)
        #expect(fix.device == "/dev/ttyACM0", "the fix names its receiver")
        // libgps keeps the last path it read: a TPV that names none has none.
        guard case .tpv(let unnamed) = decode(#"{"class":"TPV","mode":2,"lat":10.5,"lon":20.5}"#) else {
            Issue.record("TPV")
            return
        }
        #expect(unnamed.device == nil)
    }

    /// The height above sea level: altMSL; else altHAE less geoidSep when both are given;
    /// else unknown, never the ellipsoidal height as if it were sea level.
    @Test func theHeightIsAboveSeaLevel() throws {
        let head = #"{"class":"TPV","mode":3,"time":"2026-03-14T08:02:38.000Z","lat":47.37,"lon":8.54,"#
        guard case .tpv(let both) = decode(head + #""altHAE":455.5,"geoidSep":47.5}"#),
            case .tpv(let haeOnly) = decode(head + #""altHAE":455.5}"#)
        else {
            Issue.record("not TPVs")
            return
        }
        #expect(both.altitude == 408 && both.altitudeHAE == 455.5)
        #expect(haeOnly.altitude.isNaN && haeOnly.altitudeHAE == 455.5)
    }

    /// Figures beyond any vehicle's are taken as not reported (gpstrackd(8), GPSD); the edges
    /// of each bound are still figures.
    @Test func figuresBeyondAnyVehicleAreUnknown() {
        let beyond =
            #"{"class":"TPV","mode":3,"time":"2026-03-14T08:02:38.000Z","lat":52.5,"lon":13.4,"altMSL":1e30,"#
            + #""epx":-1,"epy":2e7,"eph":1e300,"speed":2000.5,"track":400,"climb":-1e9}"#
        guard case .tpv(let fix) = decode(beyond) else {
            Issue.record("not a TPV")
            return
        }
        #expect(fix.latitude == 52.5 && fix.longitude == 13.4 && fix.time == 1_773_475_358)
        for (name, v) in [
            ("alt", fix.altitude), ("epx", fix.epx), ("epy", fix.epy), ("eph", fix.eph), ("speed", fix.speed),
            ("track", fix.track), ("climb", fix.climb),
        ] {
            #expect(v.isNaN, "\(name) = \(v)")
        }
        let edges =
            #"{"class":"TPV","mode":3,"lat":52.5,"lon":13.4,"altMSL":100000,"eph":1e7,"speed":2000,"track":360,"#
            + #""climb":-2000}"#
        guard case .tpv(let edge) = decode(edges) else {
            Issue.record("not a TPV")
            return
        }
        #expect(edge.altitude == 100_000 && edge.eph == 1e7 && edge.speed == 2000 && edge.track == 360)
        #expect(edge.climb == -2000)
    }

    @Test func unknownValuesAreNaNOrNilNeverZero() {
        guard case .tpv(let fix) = decode(#"{"class":"TPV","mode":2,"lat":10.5,"lon":20.5}"#) else {
            Issue.record("not a TPV")
            return
        }
        #expect(fix.time == nil)
        #expect(fix.eph.isNaN && fix.speed.isNaN && fix.track.isNaN && fix.altitude.isNaN)
        #expect(fix.horizontalError == nil)
        // gpsd 3.22 sends mode-0 TPVs with no MODE_SET: a no-fix report, not malformed.
        guard case .tpv(let none) = decode(#"{"class":"TPV","device":"/dev/pts/5","mode":0}"#) else {
            Issue.record("not a TPV")
            return
        }
        #expect(none.mode == 0 && none.latitude.isNaN)
    }

    @Test func otherClassesAndDevices() {
        guard case .other(let name) = decode(#"{"class":"SKY","device":"/dev/x","hdop":1.1}"#) else {
            Issue.record("SKY")
            return
        }
        #expect(name == "SKY")
        guard
            case .device(let path, let on) = decode(
                #"{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"u-blox","activated":"2026-03-14T08:00:00.000Z"}"#)
        else {
            Issue.record("DEVICE")
            return
        }
        #expect(path == "/dev/ttyUSB0" && on)
        // What gpsd 3.22 sends when a receiver is unplugged.
        guard case .device(let gone, let off) = decode(#"{"class":"DEVICE","path":"/dev/pts/3","activated":0}"#) else {
            Issue.record("DEVICE off")
            return
        }
        #expect(!off)
        #expect(gone == "/dev/pts/3", "the removed receiver is named")
    }

    @Test(arguments: [
        "garbage", #"{"class":"TPV","mode":3,"lat":3"#, "[1,2,3]", #"{"mode":3}"#, #"{"class":"NOPE!!"}"#,
        "{\"class\":\"TPV\",\u{0}\"mode\":3}", "{" + String(repeating: " ", count: 70_000) + "}",
    ])
    func malformedLinesAreFlagged(_ line: String) {
        guard case .malformed = decode(line) else {
            Issue.record("accepted: \(line.prefix(40))")
            return
        }
    }

    @Test func blankLines() {
        guard case .blank = decode("  \r") else {
            Issue.record("blank")
            return
        }
        guard case .blank = decode("\r") else {
            Issue.record("a lone CR is blank")
            return
        }
    }

    /// gpsd ends its reports with CR LF: the CR the decoder drops is only that one byte, and a
    /// line means the same with it, without it, or with more whitespace.
    @Test func theCROfGpsdsLineEndIsInsignificant() {
        let tpv =
            #"{"class":"TPV","device":"/dev/ttyS0","mode":2,"time":"2026-03-14T08:02:38.000Z","lat":10.5,"lon":20.5}"#
        for line in [tpv + "\r", tpv + " \r", tpv + "\r\r", "\r" + tpv + "\r"] {
            guard case .tpv(let fix) = decode(line) else {
                Issue.record("not read: \(line.debugDescription)")
                continue
            }
            #expect(fix.latitude == 10.5 && fix.longitude == 20.5 && fix.device == "/dev/ttyS0")
        }
        // gpsd's own ending costs no copy of the line: only the spaced forms above made one.
        let fresh = GPSDDecoder()
        for _ in 0..<3 {
            guard case .tpv = fresh.decode(Array((tpv + "\r").utf8)[...]) else {
                Issue.record("not read")
                return
            }
        }
        #expect(fresh.checkBuffers.copyCapacity == 0)
        #expect(decoder.checkBuffers.copyCapacity > 0, "the spaced lines were copied")
        for line in [#"{"class":"TPV","mode":2,"lat":10.5"# + "\r", "{\"class\":\"TPV\"}\r{}"] {
            guard case .malformed = decode(line) else {
                Issue.record("accepted: \(line.debugDescription)")
                continue
            }
        }
    }
}
