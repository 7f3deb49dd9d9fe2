import Foundation
import GPSTrackJSON
import GPSTrackSim
import Testing

@testable import GPSTrackCore

/// A fences file mangled, through the daemon's own path for it: the loader
/// (`GeoJSONFences.parse`) and the fence index (`FenceIndex`, with GEOS where it loads). Each
/// mangled file is refused with an error naming the file, or loads fences the loader's rules
/// allow (finite positions on the Earth, radii above 0), which the index takes and answers for.
/// No mangling crashes either.
@Suite struct GeoJSONMutationTests {
    static let file = "mutated.geojson"

    /// Numbers no fence may hold, or at the edges of what one may.
    static let hostileNumbers = ["-1", "0", "-0", "1e400", "-1e400", "1e308", "91", "-90.0000001", "181", "-181"]

    /// What one mangled file came to.
    enum Outcome { case refused, indexRefused, indexed }

    /// Loads `bytes` as the daemon does, checks what loads and queries the index near each fence.
    static func load(_ bytes: [UInt8]) -> Outcome {
        let fences: [Fence]
        do throws(FenceError) {
            fences = try GeoJSONFences.parse(bytes, file: file)
        } catch {
            #expect(error.description.contains(file), "the refusal names the file: \(error)")
            return .refused
        }
        for fence in fences { checkLoaded(fence) }
        let index: FenceIndex
        do throws(FenceError) {
            index = try FenceIndex(fences: fences, file: file)
        } catch {
            #expect(error.description.contains(file), "the index's refusal names the file: \(error)")
            return .indexRefused
        }
        for fence in fences {
            let near = anyPosition(fence)
            for i in index.candidates(near: near, marginM: 100) {
                let d = index.signedDistance(fence: i, point: near)
                #expect(!d.isNaN, "fence \(fences[i].id): a distance of NaN")
            }
        }
        return .indexed
    }

    /// A fence the loader let through holds what its rules allow.
    static func checkLoaded(_ fence: Fence) {
        func onEarth(_ c: Coordinate) -> Bool {
            c.latitude.isFinite && c.longitude.isFinite && abs(c.latitude) <= 90 && abs(c.longitude) <= 180
        }
        switch fence.shape {
        case .circle(let center, let radius):
            #expect(onEarth(center) && radius.isFinite && radius > 0, "\(fence.id): \(center), radius \(radius)")
        case .polygons(let polygons):
            let rings = polygons.flatMap { $0 }
            #expect(rings.allSatisfy { $0.count >= 4 && $0.allSatisfy(onEarth) }, "\(fence.id): \(polygons)")
        case .corridor(let lines, let width):
            #expect(lines.allSatisfy { $0.allSatisfy(onEarth) } && width.isFinite && width > 0, "\(fence.id)")
        }
    }

    static func anyPosition(_ fence: Fence) -> Coordinate {
        switch fence.shape {
        case .circle(let center, _): center
        case .polygons(let polygons): polygons.first?.first?.first ?? Coordinate(latitude: 0, longitude: 0)
        case .corridor(let lines, _): lines.first?.first ?? Coordinate(latitude: 0, longitude: 0)
        }
    }

    static let good = Array(
        FenceGenerator.geoJSON(
            FenceGenerator.fences(count: 20, origin: Coordinate(latitude: 47, longitude: 8), sideM: 2000, seed: 3)
        ).utf8)

    @Test func theUnmangledFileLoadsAndIsIndexed() {
        #expect(Self.load(Self.good) == .indexed)
    }

    @Test func mutatedFencesNeverCrash() {
        var rng = SeededRandom(seed: 9)
        var outcomes: [Outcome] = []
        for _ in 0..<300 {
            var bytes = Self.good
            for _ in 0..<(1 + Int(rng.unit() * 4)) {
                let at = Int(rng.unit() * Double(bytes.count - 1))
                switch Int(rng.unit() * 3) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: Int(rng.unit() * 256))
                case 1: bytes.remove(at: at)
                default: bytes.insert(UInt8(truncatingIfNeeded: Int(rng.unit() * 256)), at: at)
                }
            }
            outcomes.append(Self.load(bytes))
        }
        #expect(outcomes.filter { $0 == .refused }.count > 100, "most mutations break the file")
        #expect(outcomes.contains(.indexed), "some leave it loadable: those reach the index")
    }

    /// Every number in the file, in turn, replaced by each hostile one: a radius of -1, a
    /// latitude of 91, a coordinate of 1e400 (infinite once read) each meet the loader.
    @Test func everyNumberMadeHostileIsRefusedOrHarmless() throws {
        let text = String(decoding: Self.good, as: UTF8.self)
        let numbers = try Regex(#"-?[0-9][0-9.eE+-]*"#)
        let ranges = text.ranges(of: numbers)
        #expect(ranges.count > 100)
        var refused = 0
        for range in ranges {
            for hostile in Self.hostileNumbers {
                let mangled = text.replacingCharacters(in: range, with: hostile)
                if Self.load(Array(mangled.utf8)) != .indexed { refused += 1 }
            }
        }
        #expect(refused > 0)
    }
}
