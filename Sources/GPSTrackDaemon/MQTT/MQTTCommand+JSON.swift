import GPSTrackJSON
import GPSTrackProtocol

/// The canonical form of a broker command, written by the one JSON writer (`ReplyEncoder`):
/// `_type`, `action`, then the action's members; `parse` reads it back to the same command.
extension MQTTCommand: Encodable {
    /// The command in its canonical form: `parse` reads it back to the same command.
    public var json: String { ReplyEncoder.encode(self) }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode("cmd", forKey: "_type")
        try c.encode(action, forKey: "action")
        switch self {
        case .reportSteps(let from, let to):
            if let from { try c.encode(from, forKey: "from") }
            if let to { try c.encode(to, forKey: "to") }
        case .guard(let on): try c.encode(on, forKey: "on")
        case .guardAck: try c.encode(true, forKey: "ack")
        case .trip(let verb): try c.encode(verb.rawValue, forKey: "trip")
        case .setWaypoints(let list): try c.encode(list, forKey: "waypoints")
        case .setFences(let set): try c.encode(set.collection, forKey: "fences")
        case .anchor(let a):
            // The figures by the broker's names (`radius`, `rode`...), in `anchorFigures`' order.
            try c.encode(a.verb.rawValue, forKey: "anchor")
            if case .drop(let d) = a {
                for (key, _, path) in Self.anchorFigures {
                    if let v = d[keyPath: path] { try c.encode(v, forKey: JSONKey(stringValue: key)) }
                }
            }
        case .reportLocation, .status, .dump, .waypoints, .reload: break
        }
    }
}

extension MQTTCommand.Waypoint: Encodable {
    /// The waypoint as OwnTracks writes it: `_type`, then the members in the order of their names.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode("waypoint", forKey: "_type")
        try c.encode(desc, forKey: "desc")
        try c.encode(lat, forKey: "lat")
        try c.encode(lon, forKey: "lon")
        try c.encode(rad, forKey: "rad")
        try c.encode(rid, forKey: "rid")
    }
}
