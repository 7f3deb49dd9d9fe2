import GPSTrackCore
import GPSTrackProtocol

/// Writes fixes as gpsd JSON, the way `gpspipe -w` records a session.
public enum GPSDLogWriter {
    /// The lines gpsd sends before the first report.
    public static let header = [
        #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttySIM0","driver":"NMEA0183","activated":"2026-03-14T08:00:00.000Z","native":0,"bps":9600,"parity":"N","stopbits":1,"cycle":1.00}]}"#,
        #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#,
    ]

    /// One TPV line, naming the fix's device (else /dev/ttySIM0).
    public static func tpv(_ fix: Fix) -> String {
        var s = #"{"class":"TPV","device":"\#(fix.device ?? "/dev/ttySIM0")","mode":\#(fix.mode)"#
        if let t = fix.time { s += #","time":"\#(Timestamp.iso8601(t))""# }
        func add(_ key: String, _ v: Double, _ digits: Double) {
            guard v.isFinite else { return }
            s += ",\"\(key)\":\((v * digits).rounded() / digits)"
        }
        add("lat", fix.latitude, 1e9)
        add("lon", fix.longitude, 1e9)
        // As gpsd 3.22 reports a receiver that gives both heights (NMEAWriter's GGA does).
        add("altHAE", fix.altitudeHAE, 1e3)
        add("altMSL", fix.altitude, 1e3)
        add("alt", fix.altitude, 1e3)
        add("epx", fix.epx, 1e3)
        add("epy", fix.epy, 1e3)
        add("track", fix.track, 1e4)
        add("speed", fix.speed, 1e3)
        add("climb", fix.climb, 1e3)
        add("eph", fix.eph, 1e3)
        add("geoidSep", fix.altitudeHAE - fix.altitude, 1e3)
        return s + "}"
    }

    /// A SKY line, as gpsd sends between TPVs.
    public static func sky(time: Double) -> String {
        #"{"class":"SKY","device":"/dev/ttySIM0","time":"\#(Timestamp.iso8601(time))","hdop":0.9,"satellites":[{"PRN":5,"el":45.0,"az":120.0,"ss":40.0,"used":true}]}"#
    }
}
