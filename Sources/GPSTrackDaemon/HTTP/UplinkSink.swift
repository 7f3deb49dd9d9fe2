import GPSTrackProtocol

/// An HTTP uplink: a tracker sink with a sender (its queue and server, for `status`) and a
/// clock check (the fixes it left out for their date).
protocol UplinkSink: TrackerSink {
    /// Which uplink: its status key and outbox queue (`name` is its raw value).
    var uplink: UplinkName { get }
    var sender: UplinkSender { get }
    var clock: UplinkClockCheck { get }
}
