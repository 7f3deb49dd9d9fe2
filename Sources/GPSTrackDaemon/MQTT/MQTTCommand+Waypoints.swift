import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// `setWaypoints`' circles, read and checked as the fences file's are: every bad waypoint named,
/// nothing taken when one is bad.
extension MQTTCommand {
    /// One OwnTracks waypoint: a circle (`rid` its id, `desc` its name).
    public struct Waypoint: Sendable, Equatable {
        public var rid: String
        public var desc: String
        public var lat: Double
        public var lon: Double
        public var rad: Double

        /// The circle as a fence.
        var fence: Fence {
            Fence(
                index: 0, id: rid, name: desc,
                shape: .circle(center: Coordinate(latitude: lat, longitude: lon), radiusM: rad))
        }
    }

    /// What is wrong with a waypoint list, in words.
    struct Problem: Error { var text: String }

    /// Largest radius pushed, metres: a fences file's bound (`GeoJSONFences.maxRadiusM`).
    public static let maxRadiusM = GeoJSONFences.maxRadiusM
    static let waypointMembers: Set<String> = ["_type", "desc", "lat", "lon", "rad", "rid", "tst"]

    /// `waypoints`: OwnTracks' nested `{"_type":"waypoints","waypoints":[…]}` or the bare array.
    static func waypointList(_ v: JSONValue) -> Result<[Waypoint], Problem> {
        var list: [JSONValue]
        switch v {
        case .array(let a): list = a
        case .object(let o):
            guard o["_type"]?.string == "waypoints", Set(o.keys).isSubset(of: ["_type", "waypoints"]),
                let a = o["waypoints"]?.array
            else {
                return .failure(
                    Problem(text: "\"waypoints\" is neither an array nor {\"_type\":\"waypoints\",\"waypoints\":[…]}"))
            }
            list = a
        default: return .failure(Problem(text: "\"waypoints\" is \(describe(v)), not an array"))
        }
        guard list.count <= maxPushed else {
            return .failure(Problem(text: "\(list.count) waypoints, more than \(maxPushed)"))
        }
        var out: [Waypoint] = []
        var problems: [String] = []
        var seen: Set<String> = []
        for (i, item) in list.enumerated() {
            let name =
                "waypoint \(i + 1)" + (item["rid"]?.string.map { " (rid \(ReplyEncoder.quote(printable($0))))" } ?? "")
            switch oneWaypoint(item) {
            case .success(let w) where !seen.insert(w.rid).inserted: problems.append("\(name): rid used twice")
            case .success(let w): out.append(w)
            case .failure(let why): problems.append("\(name): \(why.text)")
            }
        }
        guard problems.isEmpty else {
            let shown = problems.prefix(5).joined(separator: "; ")
            return .failure(Problem(text: shown + (problems.count > 5 ? "; and \(problems.count - 5) more" : "")))
        }
        return .success(out)
    }

    static func oneWaypoint(_ v: JSONValue) -> Result<Waypoint, Problem> {
        guard case .object(let o) = v else { return .failure(Problem(text: "\(describe(v)), not an object")) }
        if let extra = o.keys.filter({ !waypointMembers.contains($0) }).sorted().first {
            return .failure(Problem(text: "unknown member \(ReplyEncoder.quote(printable(extra)))"))
        }
        if let t = o["_type"], t.string != "waypoint" {
            return .failure(Problem(text: "\"_type\" is \(describe(t)), not \"waypoint\""))
        }
        guard let rid = o["rid"]?.string, !rid.isEmpty, rid.unicodeScalars.count <= 128, printable(rid) == rid else {
            return .failure(Problem(text: "\"rid\" must be a text of 1 to 64 printable characters"))
        }
        guard let desc = o["desc"]?.string, desc.unicodeScalars.count <= 128, printable(desc) == desc else {
            return .failure(Problem(text: "\"desc\" must be a text of up to 64 printable characters"))
        }
        guard let lat = o["lat"]?.number, (-90...90).contains(lat) else {
            return .failure(Problem(text: "\"lat\" must be a number from -90 to 90"))
        }
        guard let lon = o["lon"]?.number, (-180...180).contains(lon) else {
            return .failure(Problem(text: "\"lon\" must be a number from -180 to 180"))
        }
        guard let rad = o["rad"]?.number, rad > 0, rad <= maxRadiusM else {
            return .failure(Problem(text: "\"rad\" must be metres above 0, at most \(Int(clamping: maxRadiusM))"))
        }
        if let t = o["tst"], t.number == nil {
            return .failure(Problem(text: "\"tst\" is \(describe(t)), not a number"))
        }
        return .success(Waypoint(rid: rid, desc: desc, lat: lat, lon: lon, rad: rad))
    }
}
