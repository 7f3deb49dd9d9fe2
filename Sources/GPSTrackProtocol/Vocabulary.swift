// The event vocabulary lives in the leaf module the core shares; the protocol's users see it
// as their own.
@_exported import GPSTrackVocabulary
