import GPSTrackJSON

extension GeoJSONFences {
    /// What `each` read: the good fences and every bad feature's error, in the collection's order.
    public struct Read: Sendable {
        public var fences: [Fence]
        public var problems: [FenceError]
    }

    /// Reads an already parsed `FeatureCollection` as the fences file's is read, but on past a
    /// bad feature: every one is named (fences pushed from afar are answered with all their
    /// faults at once, not one per round trip). A collection that is not one throws.
    /// Polygon validity is GEOS's, checked by `FenceIndex` (see `invalid`).
    public static func each(_ root: JSONValue, file: String) throws(FenceError) -> Read {
        guard root["type"]?.string == "FeatureCollection" else {
            throw FenceError(
                file: file, reason: "not a GeoJSON FeatureCollection (\"type\" must be \"FeatureCollection\")")
        }
        guard let features = root["features"]?.array else {
            throw FenceError(file: file, reason: "FeatureCollection without a \"features\" array")
        }
        var read = Read(fences: [], problems: [])
        var seen: [String: Int] = [:]
        for (i, feature) in features.enumerated() {
            do throws(FenceError) {
                let fence = try parseFeature(feature, index: i, file: file)
                if let first = seen[fence.id] {
                    read.problems.append(
                        FenceError(
                            file: file, featureIndex: i, featureID: fence.id,
                            reason: "duplicate id (feature \(first) has it too)"))
                    continue
                }
                seen[fence.id] = i
                read.fences.append(fence)
            } catch {
                read.problems.append(error)
            }
        }
        return read
    }

    /// Every fence GEOS finds invalid, by itself: nothing when the whole set builds (one pass),
    /// else each polygon and corridor tried alone, to name them all.
    /// The errors keep the fences' own `index`.
    public static func invalid(_ fences: [Fence], file: String) -> [FenceError] {
        var indexed = fences
        for i in indexed.indices { indexed[i].index = i }
        do throws(FenceError) {
            _ = try FenceIndex(fences: indexed, file: file)
            return []
        } catch {
            var problems: [FenceError] = []
            for fence in fences {
                if case .circle = fence.shape { continue }
                var alone = fence
                alone.index = 0
                do throws(FenceError) { _ = try FenceIndex(fences: [alone], file: file) } catch {
                    var e = error
                    e.featureIndex = fence.index
                    problems.append(e)
                }
            }
            // The index's fault lay in no one fence alone: report it as it came.
            return problems.isEmpty ? [error] : problems
        }
    }
}
