import GPSTrackVocabulary

/// The map page's keys (gpstrackd.conf(5), MAP PAGE): the tiles under the track.
extension ConfigParser {
    static let mapTable: [(String, Setter)] = [
        (
            "map_tiles_url",
            { @Sendable c, v in
                switch MapTiles.parse(v, attribution: c.mapTilesAttribution) {
                case .failure(let r): return "expected \(r.expected), got '\(v)'"
                case .success(let tiles):
                    c.mapTiles = tiles
                    return nil
                }
            }
        ),
        (
            "map_tiles_attribution",
            { @Sendable c, v in
                guard v.utf8.count <= MapTiles.maxAttributionBytes else {
                    return "expected an attribution of at most \(MapTiles.maxAttributionBytes) bytes"
                }
                c.mapTilesAttribution = v
                c.mapTiles?.attribution = v
                return nil
            }
        ),
    ]
}
