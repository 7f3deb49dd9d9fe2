/// A static R-tree over boxes (minX, minY, maxX, maxY), each with an integer payload, packed
/// once by Sort-Tile-Recursive as GEOS's STRtree is (node capacity 10): the fences' index
/// without GEOS. A box meets a query box when they share a point, edges included.
struct BoxTree: Sendable {
    typealias Box = (Double, Double, Double, Double)

    /// A node's bounds and its children: a range of `items` for the bottom level's nodes, of
    /// `nodes` for the others.
    struct Node: Sendable {
        var minX, minY, maxX, maxY: Double
        var first: Int32
        var count: Int32
    }

    struct Item: Sendable {
        var minX, minY, maxX, maxY: Double
        var payload: Int
    }

    static let capacity = 10
    private(set) var items: [Item]
    private(set) var nodes: [Node] = []
    /// Nodes below this index hold items.
    private var leafNodes = 0
    /// Whether a payload came with more than one box (so that a query may find it twice).
    private(set) var repeats = false
    /// The most nodes a query has still to visit: the root, then at most `capacity` children
    /// a level down.
    private var stackCapacity = 1

    /// Packs `entries`; their order does not matter.
    init(_ entries: [(Box, Int)]) {
        items = entries.map { Item(minX: $0.0.0, minY: $0.0.1, maxX: $0.0.2, maxY: $0.0.3, payload: $0.1) }
        guard !items.isEmpty else { return }
        repeats = Set(items.map(\.payload)).count < items.count
        for g in Self.tile(&items) { nodes.append(Self.cover(items[g], first: g.lowerBound)) }
        leafNodes = nodes.count
        // Each level packed in turn until one node (the last) covers everything.
        var level = 0..<nodes.count
        var levels = 1
        while level.count > 1 {
            levels += 1
            var below = Array(nodes[level])
            let groups = Self.tile(&below)
            nodes.replaceSubrange(level, with: below)
            let start = nodes.count
            for g in groups {
                let children = (g.lowerBound + level.lowerBound)..<(g.upperBound + level.lowerBound)
                nodes.append(Self.cover(nodes[children], first: children.lowerBound))
            }
            level = start..<nodes.count
        }
        stackCapacity = (levels + 1) * Self.capacity
    }

    /// Appends to `hits` the payload of every box that meets `box` (a payload inserted with two
    /// boxes may come twice).
    func query(_ box: Box, into hits: inout [Int]) {
        guard !nodes.isEmpty else { return }
        // The nodes still to visit: at most `capacity` a level below the root's, on the
        // stack (an array a query was an allocation a fix).
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: stackCapacity) { stack in
            stack[0] = Int32(nodes.count - 1)
            var depth = 1
            while depth > 0 {
                depth -= 1
                let top = stack[depth]
                let n = nodes[Int(top)]
                guard Self.meets(n.minX, n.minY, n.maxX, n.maxY, box) else { continue }
                let children = Int(n.first)..<Int(n.first + n.count)
                if Int(top) < leafNodes {
                    for i in children {
                        let it = items[i]
                        if Self.meets(it.minX, it.minY, it.maxX, it.maxY, box) { hits.append(it.payload) }
                    }
                } else {
                    for i in children {
                        stack[depth] = Int32(i)
                        depth += 1
                    }
                }
            }
        }
    }

    @inline(__always)
    static func meets(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, _ b: Box) -> Bool {
        minX <= b.2 && b.0 <= maxX && minY <= b.3 && b.1 <= maxY
    }

    /// Sorts `all` into groups of at most `capacity`: vertical slices by x, each sorted by y.
    private static func tile<T: Bounded>(_ all: inout [T]) -> [Range<Int>] {
        let groupCount = (all.count + capacity - 1) / capacity
        var sliceCount = 1
        while sliceCount * sliceCount < groupCount { sliceCount += 1 }
        let sliceSize = ((groupCount + sliceCount - 1) / sliceCount) * capacity
        all.sort { $0.minX + $0.maxX < $1.minX + $1.maxX }
        var groups: [Range<Int>] = []
        var s = 0
        while s < all.count {
            let e = min(s + sliceSize, all.count)
            all[s..<e].sort { $0.minY + $0.maxY < $1.minY + $1.maxY }
            var g = s
            while g < e {
                groups.append(g..<min(g + capacity, e))
                g += capacity
            }
            s = e
        }
        return groups
    }

    private static func cover<C: Collection>(_ children: C, first: Int) -> Node where C.Element: Bounded {
        var n = Node(
            minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity, first: Int32(first),
            count: Int32(children.count))
        for c in children {
            n.minX = min(n.minX, c.minX)
            n.minY = min(n.minY, c.minY)
            n.maxX = max(n.maxX, c.maxX)
            n.maxY = max(n.maxY, c.maxY)
        }
        return n
    }
}

/// What the packing sorts and covers: an item or a node.
protocol Bounded {
    var minX: Double { get }
    var minY: Double { get }
    var maxX: Double { get }
    var maxY: Double { get }
}

extension BoxTree.Node: Bounded {}
extension BoxTree.Item: Bounded {}
