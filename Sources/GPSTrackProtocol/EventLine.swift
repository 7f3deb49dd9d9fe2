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

    /// The events by kind; the case names the `event` field's value.
    public enum Body: Sendable, Equatable {
        case enter(FenceChange)
        case exit(FenceChange)
        case dwell(FenceChange)
        /// A fence found inside with no transition, or unknown once the fix was lost.
        case state(FenceChange)
        case fencesDetermined(FencesDetermined)
        case tripStart(TripStart)
        case tripEnd(TripEnd)
        case tripStop(TripStop)
        case guardArmed(GuardArmed)
        case guardBreach(GuardBreach)
        case overspeedStart(OverspeedStart)
        case overspeedEnd(OverspeedEnd)
        case discontinuity(Discontinuity)
        case fixAcquired(FixAcquired)
        case fixLost(FixLost)
        case anchor(AnchorChange)
        case guardAck(GuardAck)
        case guardNoPosition(GuardNoPosition)

        /// The `event` field's value (`enter`, `trip_end`, ...).
        public var name: String {
            switch self {
            case .enter: "enter"
            case .exit: "exit"
            case .dwell: "dwell"
            case .state: "state"
            case .fencesDetermined: "fences_determined"
            case .tripStart: "trip_start"
            case .tripEnd: "trip_end"
            case .tripStop: "trip_stop"
            case .guardArmed: "guard_armed"
            case .guardBreach: "guard_breach"
            case .overspeedStart: "overspeed_start"
            case .overspeedEnd: "overspeed_end"
            case .discontinuity: "discontinuity"
            case .fixAcquired: "fix_acquired"
            case .fixLost: "fix_lost"
            case .anchor(let a): a.kind.rawValue
            case .guardAck: "guard_ack"
            case .guardNoPosition: "guard_no_position"
            }
        }

        /// Every tracking event's name: what a `watch` line is when its `event` is one of these
        /// (the other lines are notices).
        public static let names = Set(readers.keys)

        /// How each kind's fields are read, by the `event` field's value: the decoder's one list
        /// of names.
        static let readers = fixedReaders.merging(AnchorChange.readers) { a, _ in a }
        private static let fixedReaders: [String: @Sendable (any Decoder) throws -> Body] = [
            "enter": { .enter(try FenceChange(from: $0)) },
            "exit": { .exit(try FenceChange(from: $0)) },
            "dwell": { .dwell(try FenceChange(from: $0)) },
            "state": { decoder in
                let f = try FenceChange(from: decoder)
                guard f.state != nil else {
                    throw ReplyDecoder.ReplyError(
                        path: ReplyDecoder.path(decoder.codingPath + [FenceChange.CodingKeys.state]),
                        reason: "is missing")
                }
                return .state(f)
            },
            "fences_determined": { .fencesDetermined(try FencesDetermined(from: $0)) },
            "trip_start": { .tripStart(try TripStart(from: $0)) },
            "trip_end": { .tripEnd(try TripEnd(from: $0)) },
            "trip_stop": { .tripStop(try TripStop(from: $0)) },
            "guard_armed": { .guardArmed(try GuardArmed(from: $0)) },
            "guard_breach": { .guardBreach(try GuardBreach(from: $0)) },
            "overspeed_start": { .overspeedStart(try OverspeedStart(from: $0)) },
            "overspeed_end": { .overspeedEnd(try OverspeedEnd(from: $0)) },
            "discontinuity": { .discontinuity(try Discontinuity(from: $0)) },
            "fix_acquired": { .fixAcquired(try FixAcquired(from: $0)) },
            "fix_lost": { .fixLost(try FixLost(from: $0)) },
            "guard_ack": { .guardAck(try GuardAck(from: $0)) },
            "guard_no_position": { .guardNoPosition(try GuardNoPosition(from: $0)) },
        ]

        /// The fields of the kind, between `event` and `seq`.
        var fields: any Encodable {
            switch self {
            case .enter(let f), .exit(let f), .dwell(let f), .state(let f): f
            case .fencesDetermined(let f): f
            case .tripStart(let f): f
            case .tripEnd(let f): f
            case .tripStop(let f): f
            case .guardArmed(let f): f
            case .guardBreach(let f): f
            case .overspeedStart(let f): f
            case .overspeedEnd(let f): f
            case .discontinuity(let f): f
            case .fixAcquired(let f): f
            case .fixLost(let f): f
            case .anchor(let f): f
            case .guardAck(let f): f
            case .guardNoPosition(let f): f
            }
        }
    }

    enum CodingKeys: String, CodingKey { case event, seq }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(body.name, forKey: .event)
        // The kind's fields land in the same object, after `event` (ReplyEncoder keeps the order).
        try body.fields.encode(to: encoder)
        try c.encode(seq, forKey: .seq)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .event)
        guard let read = Body.readers[name] else {
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
            EventLine.Body.names.contains(name)
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
