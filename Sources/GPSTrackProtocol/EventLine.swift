import GPSTrackJSON

/// One tracking event as it travels: a line of `watch`, an item of `events`, a line of
/// `gpstrackd replay` and the row the store keeps are all this text:
/// `{"event":"enter","fence":"home","name":"Home","time":"…","lat":…,"lon":…,"seq":3}`: the
/// event's name first, the fields of its kind in their order, the sequence number last. The
/// daemon encodes it with `ReplyEncoder`, gpstrackctl decodes it with `ReplyDecoder`.
public struct EventLine: Codable, Sendable, Equatable {
    /// What happened, with the fields of its kind.
    public var body: Body
    /// The event's sequence number (consecutive, kept across restarts).
    public var seq: Int

    public init(_ body: Body, seq: Int) {
        self.body = body
        self.seq = seq
    }

    enum CodingKeys: String, CodingKey { case event, seq }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(body.name, forKey: .event)
        // The kind's fields land in the same object, after `event` (ReplyEncoder keeps the order).
        try body.encodeFields(to: encoder)
        try c.encode(seq, forKey: .seq)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .event)
        guard let read = EventName(rawValue: name).flatMap({ Body.readers[$0] }) else {
            throw ReplyDecoder.ReplyError(
                path: ReplyDecoder.path(decoder.codingPath + [CodingKeys.event]),
                reason: "is not a tracking event: \(ReplyEncoder.quote(name))")
        }
        body = try read(decoder)
        seq = try c.decode(Int.self, forKey: .seq)
    }
}

/// A line of the `watch` stream after its first: a tracking event, or one of the daemon's
/// notices. Told apart by the name (`EventLine.Body.names`), so a tracking event that does
/// not read is an error, not a notice.
public enum WatchLine: Codable, Sendable, Equatable {
    case event(EventLine)
    case notice(NoticeLine)

    private enum CodingKeys: String, CodingKey { case event }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .event)
        self =
            EventName(rawValue: name).map(EventLine.Body.names.contains) == true
            ? .event(try EventLine(from: decoder)) : .notice(try NoticeLine(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .event(let e): try e.encode(to: encoder)
        case .notice(let n): try n.encode(to: encoder)
        }
    }
}

/// A `watch` line that is not a tracking event: the daemon's own news (gpsd lost or back, the
/// fix lost or acquired, fences reloaded, the pedometer, a trip's steps), as its journal entry
/// has it: `{"event":"gpsd_lost","message":"Lost gpsd: …","gpsd":"127.0.0.1:2947"}`, then the
/// entry's `GPSTRACK_*` fields in lower case without the prefix, every value a string.
public struct NoticeLine: Codable, Sendable, Equatable {
    /// One field of the journal entry.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var event: String
    /// The journal's `MESSAGE`.
    public var message: String
    /// Written in the entry's order; read back in name order (a JSON object keeps none).
    public var fields: [Field]

    public init(event: String, message: String, fields: [Field] = []) {
        self.event = event
        self.message = message
        self.fields = fields
    }

    /// The value of the field `name`, if the notice has it.
    public subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(event, forKey: JSONKey("event"))
        try c.encode(message, forKey: JSONKey("message"))
        for f in fields { try c.encode(f.value, forKey: JSONKey(stringValue: f.name)) }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        event = try c.decode(String.self, forKey: JSONKey("event"))
        message = try c.decode(String.self, forKey: JSONKey("message"))
        fields = try c.allKeys.map(\.stringValue).filter { $0 != "event" && $0 != "message" }.sorted()
            .map { Field($0, try c.decode(String.self, forKey: JSONKey(stringValue: $0))) }
    }
}
