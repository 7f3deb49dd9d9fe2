import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// `{"_type":"cmd","action":"anchor","anchor":"drop"|"raise"|"ack"|"status", …}`: the anchor
/// watch's verbs from the broker, with `gpstrackctl anchor drop`'s options as members
/// (`radius`, `bearing` with `distance`, `rode` with `depth`), checked as the control socket
/// checks them.
extension MQTTCommand {
    /// The figures `drop` takes: member, range (the control socket's: a radius of 5 m to 10 km,
    /// a rode of up to 1 km, the anchor at most 1 km ahead), and where it goes.
    static var anchorFigures: [(String, ClosedRange<Double>, WritableKeyPath<AnchorCommand.Drop, Double?>)] {
        [
            ("radius", 5...10_000, \.radiusM), ("bearing", -360...360, \.bearing), ("distance", 0...1000, \.distanceM),
            ("rode", 0.1...1000, \.rodeM), ("depth", 0...500, \.depthM),
        ]
    }

    /// The members `anchor` takes besides `_type` and `action`.
    static let anchorMembers: Set<String> = ["anchor", "radius", "bearing", "distance", "rode", "depth"]

    /// Reads an `anchor` command's members (the unknown ones refused already).
    static func anchor(_ o: [String: JSONValue]) -> Result<AnchorCommand, AnchorRefusal> {
        guard let v = o["anchor"] else { return .failure(.init("no \"anchor\" (drop, raise, ack or status)")) }
        let figures = anchorFigures.map(\.0).filter { o[$0] != nil }
        let verb = v.string.flatMap(CommandName.AnchorVerb.init(rawValue:))
        switch verb {
        case .raise, .ack, .status:
            if let first = figures.first {
                return .failure(.init("\"\(first)\" goes with \"anchor\":\"drop\", not \"\(v.string!)\""))
            }
            return .success(verb == .raise ? .raise : verb == .ack ? .ack : .status)
        case .drop:
            var d = AnchorCommand.Drop()
            for (key, range, path) in anchorFigures {
                guard let x = o[key] else { continue }
                guard let n = x.number, n.isFinite, range.contains(n) else {
                    return .failure(
                        AnchorRefusal(
                            "\"\(key)\" is \(describe(x)), not a number from \(range.lowerBound.bound) to \(range.upperBound.bound)"
                        ))
                }
                d[keyPath: path] = n
            }
            if (d.bearing == nil) != (d.distanceM == nil) {
                return .failure(.init("\"bearing\" and \"distance\" go together"))
            }
            if (d.rodeM == nil) != (d.depthM == nil) { return .failure(.init("\"rode\" and \"depth\" go together")) }
            if d.radiusM == nil, d.rodeM == nil {
                return .failure(.init("drop needs \"radius\", or \"rode\" and \"depth\""))
            }
            return .success(.drop(d))
        case nil:
            return .failure(.init("\"anchor\" is \(describe(v)), not \"drop\", \"raise\", \"ack\" or \"status\""))
        }
    }

    /// Why an `anchor` command's members do not read.
    struct AnchorRefusal: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}

extension Double {
    /// A range's bound as the refusal writes it: `5`, `0.1`, `10000`.
    fileprivate var bound: String { self == rounded() ? String(Int(clamping: self)) : String(self) }
}
