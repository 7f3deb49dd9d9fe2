#if canImport(Glibc)
import Glibc
#endif

/// The map's labels, placed so that no two overlap (nor cover a marker or the title): each is
/// tried at candidate positions around its marker, nearest first, and takes the first free one;
/// a label with no room is drawn as its number instead (tried the same way, further out), its
/// text in the list under the map; a number with no room either is in the list only. Boxes are
/// estimated generously for the page's 13 px sans-serif, so that a browser's real text fits in
/// them (MapPageTests measures the real ones).
struct MapLabels {
    /// A rectangle in the map's units (y down).
    struct Box: Equatable {
        var x: Double, y: Double, w: Double, h: Double
        func intersects(_ o: Box) -> Bool { x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h }
        func inside(_ o: Box) -> Bool { x >= o.x && y >= o.y && x + w <= o.x + o.w && y + h <= o.y + o.h }
    }

    /// One label as drawn: its text (or number) at `box`, a leader from the marker when it
    /// stands off, or nothing drawn (`box` nil) with the text listed under the map.
    struct Placed {
        var text: String
        var box: Box?
        /// The number it is listed under the map with (nil: drawn whole).
        var number: Int?
        var leader: (Double, Double, Double, Double)?
    }

    /// Per character of 13 px text: above the widest common glyphs' average in DejaVu Sans and
    /// Liberation Sans (about 0.6 em), plus the halo's 1.5 px either side.
    static let charWidth = 8.2
    static let height = 17.0
    /// From the box's top to the text's baseline.
    static let baseline = 13.0

    let area: Box
    private(set) var taken: [Box]
    private(set) var listed = 0

    /// `area`: where labels may go; `obstacles`: what they must not cover (markers, the title).
    init(area: Box, obstacles: [Box]) {
        self.area = area
        taken = obstacles
    }

    static func width(_ text: String) -> Double { Double(text.count) * charWidth + 3 }

    /// Places `text` for a marker at (x, y) of half-size `gap` (the label keeps clear of it),
    /// the first direction tried `first` (radians, 0 east, y down): whole, else numbered.
    mutating func place(_ text: String, x: Double, y: Double, gap: Double, first: Double = 0) -> Placed {
        let w = Self.width(text)
        if let box = free(w: w, x: x, y: y, radii: [gap + 2, gap + 16, gap + 32], directions: 8, first: first) {
            return Placed(text: text, box: box, number: nil, leader: leader(box, x, y, gap))
        }
        listed += 1
        let number = String(listed)
        let radii = stride(from: gap + 2, through: gap + 200, by: 14).map { $0 }
        guard let box = free(w: Self.width(number), x: x, y: y, radii: radii, directions: 16, first: first) else {
            return Placed(text: text, box: nil, number: listed, leader: nil)
        }
        return Placed(text: text, box: box, number: listed, leader: leader(box, x, y, gap))
    }

    /// The first candidate box free of every box taken and within the area; taken if found.
    private mutating func free(w: Double, x: Double, y: Double, radii: [Double], directions n: Int, first: Double)
        -> Box?
    {
        let h = Self.height
        for r in radii {
            for i in 0..<n {
                // Alternating about `first`: east, west, north, south, then the diagonals.
                let base: [Double] = [0, .pi, -.pi / 2, .pi / 2, -.pi / 4, .pi / 4, -3 * .pi / 4, 3 * .pi / 4]
                let a = first + (i < 8 ? base[i] : base[i - 8] + .pi / 8)
                let (dx, dy) = (cos(a), sin(a))
                // The box's centre so that its edge nearest the marker is about `r` away.
                let cx = x + dx * (r + w / 2 * abs(dx))
                let cy = y + dy * (r + h / 2 * abs(dy))
                let box = Box(x: cx - w / 2, y: cy - h / 2, w: w, h: h)
                if box.inside(area), !taken.contains(where: { $0.intersects(box) }) {
                    taken.append(box)
                    return box
                }
            }
        }
        return nil
    }

    /// A line from the marker's edge to the box's nearest point, when the box stands off.
    private func leader(_ b: Box, _ x: Double, _ y: Double, _ gap: Double) -> (Double, Double, Double, Double)? {
        let nx = min(max(x, b.x), b.x + b.w)
        let ny = min(max(y, b.y), b.y + b.h)
        let d = ((nx - x) * (nx - x) + (ny - y) * (ny - y)).squareRoot()
        guard d > gap + 8 else { return nil }
        return (x + (nx - x) / d * gap, y + (ny - y) / d * gap, nx, ny)
    }
}
