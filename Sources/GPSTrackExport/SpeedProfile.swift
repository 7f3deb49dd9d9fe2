import GPSTrackProtocol

/// The speed profile under the map over the time of the points: one column of figures (fastest
/// speed, mean height) per unit of the plot's width, so that a month of points takes as little
/// memory as a day's. Trips are shaded bands. The height is drawn only when its smoothed range
/// is more than twice the receiver's vertical error, on a scale of its own at least four errors
/// tall: a parked receiver's wander of a few metres is not drawn as hills. The error is read off
/// the heights themselves (twice the RMS of the column means about the smoothed line, at least
/// 3 m): gpsd's `eph` is an HDOP-derived 95 % figure several times the true one. Otherwise a
/// line says the range and why it is not drawn.
struct SpeedProfile {
    static let width = 1000.0, height = 240.0, x0 = 50.0, x1 = 950.0, top = 16.0, bottom = 200.0
    let first: Double
    let last: Double
    private var speed: [Double?]
    private var altSum: [Double]
    private var altCount: [Int]
    /// Columns where a track segment begins: the lines break there, not at columns without a
    /// point (a walk's points are further apart than a column).
    private var breaks: [Bool]

    init(_ b: ExportBounds) {
        first = b.first
        last = max(b.last, b.first + 1)
        let n = Int(clamping: Self.x1 - Self.x0, rounding: .towardZero) + 1
        speed = Array(repeating: nil, count: n)
        altSum = Array(repeating: 0, count: n)
        altCount = Array(repeating: 0, count: n)
        breaks = Array(repeating: false, count: n)
    }

    func x(_ t: Double) -> Double { Self.x0 + (t - first) / (last - first) * (Self.x1 - Self.x0) }

    mutating func add(_ p: ExportPoint) {
        // Clamped before it is an Int: a time far outside the bounds (or NaN) would trap.
        let c = x(p.time) - Self.x0
        let i = Int(clamping: min(max(c, 0), Double(speed.count - 1)), rounding: .towardZero)
        if p.segment { breaks[i] = true }
        if let v = p.speedMps { speed[i] = max(speed[i] ?? 0, v * 3.6) }
        if let a = p.alt, a.isFinite, abs(a) < 1e6 {
            altSum[i] += a
            altCount[i] += 1
        }
    }

    /// The round ceiling of the axis: 10, 20, 50, 100, 200 km/h ...
    static func ceiling(_ v: Double) -> Double {
        var step = 10.0
        while true {
            for m in [1.0, 2, 5] where v <= step * m { return step * m }
            step *= 10
        }
    }

    func svg(_ context: ExportContext) -> String {
        let top = Self.top
        let bottom = Self.bottom
        let vmax = Self.ceiling(speed.compactMap { $0 }.max() ?? 0)
        func y(_ kmh: Double) -> Double { bottom - min(kmh, vmax) / vmax * (bottom - top) }
        var s =
            "<svg id=\"profile\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Text.decimal(Self.width, 0)) "
            + "\(Text.decimal(Self.height, 0))\" data-t0=\"\(Text.decimal(first, 3))\" data-t1=\"\(Text.decimal(last, 3))\" "
            + "data-x0=\"\(Text.decimal(Self.x0, 0))\" data-x1=\"\(Text.decimal(Self.x1, 0))\" role=\"img\" aria-label=\"Speed profile\">"
            + "<style>text{font:12px sans-serif;fill:#333}.band{fill:#e8eef7}.ax{stroke:#999;stroke-width:1}"
            + ".sp{fill:none;stroke:#d7191c;stroke-width:1.5}.alt{fill:none;stroke:#666;stroke-width:1;stroke-dasharray:3 2}.altnote{fill:#666}</style>"
        for t in context.trips {
            guard let a = Timestamp.parse(t.startedAt) else { continue }
            let b = t.endedAt.flatMap(Timestamp.parse) ?? last
            let xa = max(x(a), Self.x0)
            let xb = min(x(b), Self.x1)
            guard xb > xa else { continue }
            s +=
                "<rect class=\"band\" x=\"\(Text.decimal(xa, 1))\" y=\"\(top)\" width=\"\(Text.decimal(xb - xa, 1))\" "
                + "height=\"\(bottom - top)\"/><text x=\"\(Text.decimal(xa + 3, 1))\" y=\"\(top + 12)\">Trip \(t.id)</text>"
        }
        for v in [0, vmax / 2, vmax] {
            s +=
                "<line class=\"ax\" x1=\"\(Self.x0)\" x2=\"\(Self.x1)\" y1=\"\(Text.decimal(y(v), 1))\" y2=\"\(Text.decimal(y(v), 1))\"/>"
                + "<text x=\"\(Self.x0 - 6)\" y=\"\(Text.decimal(y(v) + 4, 1))\" text-anchor=\"end\">\(Text.decimal(v, 0))</text>"
        }
        s += "<text x=\"4\" y=\"\(top - 4)\">km/h</text>"
        s += polylines(speed.map { $0.map(y) }, cls: "sp")
        s += height()
        s += ticks() + "<line id=\"cursor\" class=\"ax\" x1=\"-10\" x2=\"-10\" y1=\"\(top)\" y2=\"\(bottom)\"/></svg>\n"
        return s
    }

    /// Each column's mean height (nil where none).
    private var means: [Double?] { zip(altSum, altCount).map { $1 > 0 ? $0 / Double($1) : nil } }

    /// Each column's mean height, smoothed over the columns within 5 of it (nil where none).
    var smoothedHeights: [Double?] {
        let means = means
        return means.indices.map { i in
            guard means[i] != nil else { return nil }
            let near = means[max(0, i - 5)...min(means.count - 1, i + 5)].compactMap { $0 }
            return near.reduce(0, +) / Double(near.count)
        }
    }

    /// The receiver's vertical error as the page takes it (see the type's note).
    func verticalErrorM(_ smoothed: [Double?]) -> Double {
        let residuals = zip(means, smoothed).compactMap { m, s in m.flatMap { m in s.map { m - $0 } } }
        guard !residuals.isEmpty else { return 3 }
        let rms = (residuals.map { $0 * $0 }.reduce(0, +) / Double(residuals.count)).squareRoot()
        return max(3, 2 * rms)
    }

    /// The height line and its axis on the right, or the line that says why there is none.
    private func height() -> String {
        let heights = smoothedHeights
        let known = heights.compactMap { $0 }
        guard let lo = known.min(), let hi = known.max() else { return "" }
        let err = verticalErrorM(heights)
        guard hi - lo > 2 * err else {
            return "<text class=\"altnote\" x=\"\(Self.x1)\" y=\"\(Self.top - 4)\" text-anchor=\"end\">height "
                + "\(Text.decimal(lo, 0))–\(Text.decimal(hi, 0)) m, within the receiver's error (±\(Text.decimal(err, 0)) m): not drawn</text>"
        }
        let span = Self.ceiling(max(hi - lo, 4 * err))
        let step = span / 2
        let base = (lo / step).rounded(.down) * step
        let top = base + (hi > base + span ? 2 * span : span)
        func y(_ m: Double) -> Double { Self.bottom - (m - base) / (top - base) * (Self.bottom - Self.top) }
        var s = polylines(heights.map { $0.map(y) }, cls: "alt")
        for m in stride(from: base, through: top, by: (top - base) / 2) {
            s += "<text x=\"\(Self.x1 + 4)\" y=\"\(Text.decimal(y(m) + 4, 1))\">\(Text.decimal(m, 0)) m</text>"
        }
        return s
    }

    /// One polyline per run of the track: a segment's break is a gap here.
    private func polylines(_ ys: [Double?], cls: String) -> String {
        var s = ""
        var run: [String] = []
        func end() {
            if run.count >= 2 { s += "<polyline class=\"\(cls)\" points=\"\(run.joined(separator: " "))\"/>" }
            run = []
        }
        for (i, v) in ys.enumerated() {
            if breaks[i] { end() }
            guard let v else { continue }
            run.append("\(Text.decimal(Self.x0 + Double(i), 1)),\(Text.decimal(v, 1))")
        }
        end()
        return s
    }

    /// Time ticks (UTC) at a round step giving 4 to 10 of them.
    private func ticks() -> String {
        let span = last - first
        let step =
            [60.0, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172_800, 604_800]
            .first { span / $0 <= 10 } ?? Self.monthsStep(span)
        var t = (first / step).rounded(.up) * step
        var s =
            "<line class=\"ax\" x1=\"\(Self.x0)\" x2=\"\(Self.x1)\" "
            + "y1=\"\(Self.bottom)\" y2=\"\(Self.bottom)\"/>"
        while t <= last {
            let iso = Timestamp.iso8601(t)
            let label = step >= 86400 ? String(iso.prefix(10)) : Clock.hm(iso)
            s +=
                "<line class=\"ax\" x1=\"\(Text.decimal(x(t), 1))\" x2=\"\(Text.decimal(x(t), 1))\" y1=\"\(Self.bottom)\" "
                + "y2=\"\(Self.bottom + 5)\"/><text x=\"\(Text.decimal(x(t), 1))\" y=\"\(Self.bottom + 18)\" "
                + "text-anchor=\"middle\">\(label)</text>"
            t += step
        }
        return s + "<text x=\"\(Self.x1)\" y=\"\(Self.bottom + 34)\" text-anchor=\"end\">UTC</text>"
    }

    /// Beyond 10 weeks, a whole number of 30 days giving at most 10 ticks: a fixed 30 days
    /// over a damaged file's span of 1e300 s never ended.
    static func monthsStep(_ span: Double) -> Double {
        let month = 2_592_000.0
        return max(1, (span / 10 / month).rounded(.up)) * month
    }
}
