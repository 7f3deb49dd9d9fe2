import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// `setFences`' GeoJSON FeatureCollection, read and checked as the fences file's is (circles,
/// polygons, corridors, their properties), but with every bad feature named and nothing taken
/// when one is bad.
extension MQTTCommand {
    /// A pushed set of fences: the collection as it came (kept in the state directory, echoed in
    /// the canonical form) and the fences it makes. Two sets are equal when their collections are.
    public struct FenceSet: Sendable, Equatable {
        public var collection: JSONValue
        public var fences: [Fence]

        public static func == (a: FenceSet, b: FenceSet) -> Bool { a.collection == b.collection }
    }

    /// Most features or waypoints in one pushed set (the byte bound comes first: `maxBytes`).
    public static let maxPushed = 20_000
    /// Bad features or waypoints named in a refusal (each cut to `maxProblemText`), the rest counted.
    static let maxNamed = 3
    static let maxProblemText = 100, maxIDText = 40

    /// `fences`: a FeatureCollection whose every feature is a valid fence with an id of at most
    /// 64 printable characters.
    static func fenceSet(_ v: JSONValue) -> Result<FenceSet, Problem> {
        guard case .object = v else {
            return .failure(Problem(text: "\"fences\" is \(describe(v)), not a GeoJSON FeatureCollection"))
        }
        if let n = v["features"]?.array?.count, n > maxPushed {
            return .failure(Problem(text: "\(n) features, more than \(maxPushed)"))
        }
        let read: GeoJSONFences.Read
        do { read = try GeoJSONFences.each(v, file: "setFences") } catch {
            return .failure(Problem(text: "\"fences\": \(error.reason)"))
        }
        var problems = read.problems
        for fence in read.fences where fence.id.unicodeScalars.count > maxEcho || printable(fence.id) != fence.id {
            problems.append(
                FenceError(
                    file: "setFences", featureIndex: fence.index, featureID: fence.id,
                    reason: "the id must be at most \(maxEcho) printable characters"))
        }
        if problems.isEmpty { problems = GeoJSONFences.invalid(read.fences, file: "setFences") }
        guard problems.isEmpty else {
            problems.sort { ($0.featureIndex ?? -1) < ($1.featureIndex ?? -1) }
            return .failure(Problem(text: named(problems.map(problemText))))
        }
        return .success(FenceSet(collection: v, fences: read.fences))
    }

    /// One bad feature in words: `feature 3 (id "x"): reason`, printable, the id and the reason
    /// cut short (the whole refusal stays under 600 characters).
    static func problemText(_ e: FenceError) -> String {
        func cut(_ s: String, _ n: Int) -> String {
            let p = String(
                String.UnicodeScalarView(
                    s.unicodeScalars.prefix(n).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
            return p + (s.unicodeScalars.count > n ? "…" : "")
        }
        var place = e.featureIndex.map { "feature \($0)" } ?? "the collection"
        if let id = e.featureID { place += " (id \(ReplyEncoder.quote(cut(id, maxIDText))))" }
        return place + ": " + cut(e.reason, maxProblemText)
    }

    /// The first `maxNamed` problems, and how many more there were.
    static func named(_ problems: [String]) -> String {
        let shown = problems.prefix(maxNamed).joined(separator: "; ")
        return shown + (problems.count > maxNamed ? "; and \(problems.count - maxNamed) more" : "")
    }
}
