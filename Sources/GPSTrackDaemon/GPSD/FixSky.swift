import GPSTrackCore

/// The fix quality a TPV does not carry: gpsd gives HDOP and the satellites used in SKY.
extension Fix {
    /// The fix with the HDOP and satellites used of `sky`, its receiver's latest SKY when the
    /// epoch was complete (gpsd sends an epoch's SKY with or just after its TPVs, before the
    /// next epoch's, which is what completes an epoch). A SKY of another receiver tells nothing.
    func withSky(_ sky: GPSDDecoder.Sky?) -> Fix {
        guard let sky, sky.device == device || sky.device == nil || device == nil else { return self }
        var f = self
        f.hdop = sky.hdop ?? .nan
        // gpsd 3.22 prints uSat 0 until a GSA has marked the satellites used: no fix comes from
        // none, so 0 is unknown.
        f.satellitesUsed = sky.used.flatMap { $0 > 0 ? $0 : nil }
        return f
    }
}
