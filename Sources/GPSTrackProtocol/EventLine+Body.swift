import GPSTrackJSON

extension EventLine {
    /// The tracking events by kind; the case names the `event` field's value. Kept beside the
    /// vocabulary so that a new kind's wire (its case, name, reader and fields) is one file.
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
        case guardArmRefused(GuardArmRefused)
        case input(InputChange)

        /// The `event` field's value (`enter`, `trip_end`, ...).
        public var name: EventName {
            switch self {
            case .enter: .enter
            case .exit: .exit
            case .dwell: .dwell
            case .state: .state
            case .fencesDetermined: .fencesDetermined
            case .tripStart: .tripStart
            case .tripEnd: .tripEnd
            case .tripStop: .tripStop
            case .guardArmed: .guardArmed
            case .guardBreach: .guardBreach
            case .overspeedStart: .overspeedStart
            case .overspeedEnd: .overspeedEnd
            case .discontinuity: .discontinuity
            case .fixAcquired: .fixAcquired
            case .fixLost: .fixLost
            case .anchor(let a): a.kind.name
            case .guardAck: .guardAck
            case .guardNoPosition: .guardNoPosition
            case .guardArmRefused: .guardArmRefused
            case .input(let i): i.kind.name
            }
        }

        /// The tracking events' names: a line with one of them is an event line, else a notice.
        public static let names = Set(readers.keys)

        /// How each kind's fields are read, by the `event` field's value: the decoder's one list
        /// of kinds.
        static let readers = fixedReaders.merging(AnchorChange.readers) { a, _ in a }
            .merging(InputChange.readers) { a, _ in a }
        private static let fixedReaders: [EventName: @Sendable (any Decoder) throws -> Body] = [
            .enter: { .enter(try FenceChange(from: $0)) },
            .exit: { .exit(try FenceChange(from: $0)) },
            .dwell: { .dwell(try FenceChange(from: $0)) },
            .state: { decoder in
                let f = try FenceChange(from: decoder)
                guard f.state != nil else {
                    throw ReplyDecoder.ReplyError(
                        path: ReplyDecoder.path(decoder.codingPath + [FenceChange.CodingKeys.state]),
                        reason: "is missing")
                }
                return .state(f)
            },
            .fencesDetermined: { .fencesDetermined(try FencesDetermined(from: $0)) },
            .tripStart: { .tripStart(try TripStart(from: $0)) },
            .tripEnd: { .tripEnd(try TripEnd(from: $0)) },
            .tripStop: { .tripStop(try TripStop(from: $0)) },
            .guardArmed: { .guardArmed(try GuardArmed(from: $0)) },
            .guardBreach: { .guardBreach(try GuardBreach(from: $0)) },
            .overspeedStart: { .overspeedStart(try OverspeedStart(from: $0)) },
            .overspeedEnd: { .overspeedEnd(try OverspeedEnd(from: $0)) },
            .discontinuity: { .discontinuity(try Discontinuity(from: $0)) },
            .fixAcquired: { .fixAcquired(try FixAcquired(from: $0)) },
            .fixLost: { .fixLost(try FixLost(from: $0)) },
            .guardAck: { .guardAck(try GuardAck(from: $0)) },
            .guardNoPosition: { .guardNoPosition(try GuardNoPosition(from: $0)) },
            .guardArmRefused: { .guardArmRefused(try GuardArmRefused(from: $0)) },
        ]

        /// Writes the fields of the kind, between `event` and `seq`: each kind's own `encode`, called
        /// on its own type (an `any Encodable` of them was a boxed copy of the fields per event).
        func encodeFields(to encoder: any Encoder) throws {
            switch self {
            case .enter(let f), .exit(let f), .dwell(let f), .state(let f): try f.encode(to: encoder)
            case .fencesDetermined(let f): try f.encode(to: encoder)
            case .tripStart(let f): try f.encode(to: encoder)
            case .tripEnd(let f): try f.encode(to: encoder)
            case .tripStop(let f): try f.encode(to: encoder)
            case .guardArmed(let f): try f.encode(to: encoder)
            case .guardBreach(let f): try f.encode(to: encoder)
            case .overspeedStart(let f): try f.encode(to: encoder)
            case .overspeedEnd(let f): try f.encode(to: encoder)
            case .discontinuity(let f): try f.encode(to: encoder)
            case .fixAcquired(let f): try f.encode(to: encoder)
            case .fixLost(let f): try f.encode(to: encoder)
            case .anchor(let f): try f.encode(to: encoder)
            case .guardAck(let f): try f.encode(to: encoder)
            case .guardNoPosition(let f): try f.encode(to: encoder)
            case .guardArmRefused(let f): try f.encode(to: encoder)
            case .input(let f): try f.encode(to: encoder)
            }
        }
    }

    /// `guard_arm_refused`: a stop where the guard would have armed (`lat`, `lon`) while the
    /// breach of the parking at `parked` is latched, not acknowledged.
    public struct GuardArmRefused: Codable, Sendable, Equatable {
        public var time: String
        public var lat: Double
        public var lon: Double
        /// The parked place of the latched breach (no fences: `fences` is always empty).
        public var parked: Place

        public init(time: String, lat: Double, lon: Double, parked: Place) {
            self.time = time
            self.lat = lat
            self.lon = lon
            self.parked = parked
        }
    }
}

extension EventLine.AnchorChange {
    /// The anchor watch's kinds, which share `AnchorChange`'s fields: beside the vocabulary, so
    /// that a new anchor kind is named in this one file of the protocol.
    public enum Kind: Sendable, CaseIterable {
        case dropped, warning, alarm, noPosition, ack, raised

        /// The `event` field's value.
        public var name: EventName {
            switch self {
            case .dropped: .anchorDropped
            case .warning: .anchorWarning
            case .alarm: .anchorAlarm
            case .noPosition: .anchorNoPosition
            case .ack: .anchorAck
            case .raised: .anchorRaised
            }
        }
    }
}
