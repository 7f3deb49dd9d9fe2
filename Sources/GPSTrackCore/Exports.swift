// The wire types (JSON, times, control requests) belong to the protocol module, which
// gpstrackctl links alone; everything that imports the core sees them too.
@_exported import GPSTrackProtocol
