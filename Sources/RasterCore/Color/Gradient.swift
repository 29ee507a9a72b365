import Foundation

/// A gradient over a unit square (Core Animation's `CAGradientLayer`): colours at stops along an axis, out
/// from a centre, or round it. Colours are mixed straight (not premultiplied), as Core Graphics mixes
/// them, so a colour fading to clear black darkens on the way.
public struct Gradient: Equatable, Sendable {
    /// A colour at a location along the gradient (0 its start, 1 its end; outside is allowed).
    public struct Stop: Equatable, Sendable {
        public let location: Double
        public let color: Color
        public init(location: Double, color: Color) { self.location = location; self.color = color }
    }

    /// Which way colours run.
    public enum Kind: Equatable, Sendable {
        /// Along the line from `start` to `end`, constant across it.
        case axial
        /// Out from `start` to the ellipse whose radii are `end − start` along x and y.
        case radial
        /// Round `start`, from the direction of `end`, clockwise on a y-down screen, once.
        case conic
    }

    public let kind: Kind
    /// In order of location.
    public let stops: [Stop]
    /// Unit coordinates of the square.
    public let start: Point
    /// Unit coordinates of the square.
    public let end: Point

    /// A gradient; `stops` are sorted by location here.
    public init(kind: Kind, stops: [Stop], start: Point, end: Point) {
        self.kind = kind; self.stops = stops.sorted { $0.location < $1.location }; self.start = start; self.end = end
    }

    /// The colour at `t` along the stops (clamped to the ends), straight (not premultiplied).
    public static func color(at t: Double, in stops: [Stop]) -> Color {
        guard let first = stops.first, let last = stops.last else { return .clear }
        if t <= first.location { return first.color }
        if t >= last.location { return last.color }
        for i in 1..<stops.count where t <= stops[i].location {
            let a = stops[i - 1], b = stops[i]
            let f = b.location > a.location ? (t - a.location) / (b.location - a.location) : 1
            return Color(red: a.color.red + (b.color.red - a.color.red) * f, green: a.color.green + (b.color.green - a.color.green) * f,
                         blue: a.color.blue + (b.color.blue - a.color.blue) * f, alpha: a.color.alpha + (b.color.alpha - a.color.alpha) * f)
        }
        return last.color
    }

    /// Where along the gradient (0 at the start, 1 at the end) the unit point (u, v) lies.
    public func position(u: Double, v: Double) -> Double {
        let dx = end.x - start.x, dy = end.y - start.y
        switch kind {
        case .radial:
            // An ellipse: from the start point to the radii that the end point gives.
            let rx = abs(dx), ry = abs(dy)
            let nx = rx > 0 ? (u - start.x) / rx : 0, ny = ry > 0 ? (v - start.y) / ry : 0
            return (nx * nx + ny * ny).squareRoot()
        case .conic:
            // Around the start point, from the direction of the end point, clockwise on screen.
            var angle = atan2(v - start.y, u - start.x) - atan2(dy, dx)
            while angle < 0 { angle += 2 * .pi }
            return angle / (2 * .pi)
        case .axial:
            let lengthSquared = dx * dx + dy * dy
            return lengthSquared > 0 ? ((u - start.x) * dx + (v - start.y) * dy) / lengthSquared : 0
        }
    }

    /// Entries in the colour table: finer than any 8-bit step of a gradient across a 4,096-pixel side.
    static let tableSize = 4096

    /// The gradient drawn into a `width` × `height` bitmap (pixels) spanning the unit square, sampled at
    /// pixel centres; an error only for a size a bitmap cannot have. With no stops, clear. Each channel is dithered by an 8 × 8 ordered (Bayer) threshold before it is rounded down to
    /// 8 bits: a slow gradient's average over any 8 × 8 block is its exact value within half a level, so
    /// it shows no bands; a flat stretch keeps exact bytes where its value is a whole level.
    public func render(width: Int, height: Int) throws(BitmapError) -> Bitmap {
        var bitmap = try Bitmap(width: width, height: height)
        guard !stops.isEmpty else { return bitmap }
        // Premultiplied colours in levels (0…255) along t from lo to hi (0…1, or past it to outlying stops),
        // interpolated between entries.
        let n = Self.tableSize
        let lo = min(0, stops[0].location), hi = max(1, stops[stops.count - 1].location)
        let table = (0...n).map { Self.levels(Self.color(at: lo + (hi - lo) * Double($0) / Double(n), in: stops)) }
        let w = Double(width), h = Double(height), span = Double(n) / (hi - lo)
        table.withUnsafeBufferPointer { table in
            bitmap.withUnsafeMutablePixels { pixels in
                for y in 0..<height {
                    let v = (Double(y) + 0.5) / h
                    for x in 0..<width {
                        let t = position(u: (Double(x) + 0.5) / w, v: v)
                        // Beyond either end the end's colour (NaN counts as the start).
                        let f = t.isNaN ? 0 : min(Double(n), max(0, (t - lo) * span))
                        let i = min(n - 1, Int(f))
                        let c = table[i] + (table[i + 1] - table[i]) * Float(f - Double(i))
                        let d = Self.bayer[(y & 7) << 3 | (x & 7)]
                        let q = (c + SIMD4(repeating: d)).rounded(.down)
                        let alpha = min(255, max(0, q.w))
                        let r = min(alpha, max(0, q.x)), g = min(alpha, max(0, q.y)), b = min(alpha, max(0, q.z))
                        pixels[y * width + x] = PremultipliedRGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: UInt8(alpha)).packed
                    }
                }
            }
        }
        return bitmap
    }

    /// A colour's premultiplied levels.
    static func levels(_ c: Color) -> SIMD4<Float> {
        let a = Float(min(1, max(0, c.alpha)))
        func channel(_ x: Double) -> Float { Float(min(1, max(0, x))) * a * 255 }
        return SIMD4(channel(c.red), channel(c.green), channel(c.blue), a * 255)
    }

    /// The 8 × 8 Bayer thresholds, (k + 0.5) / 64 for k = 0…63: each a fraction of a level added before
    /// rounding down, so the rounding is unbiased.
    static let bayer: [Float] = {
        var m: [Int] = [0]
        var size = 1
        while size < 8 {
            var next = [Int](repeating: 0, count: size * size * 4)
            for y in 0..<size { for x in 0..<size {
                let v = m[y * size + x] * 4
                next[y * 2 * size + x] = v
                next[y * 2 * size + x + size] = v + 2
                next[(y + size) * 2 * size + x] = v + 3
                next[(y + size) * 2 * size + x + size] = v + 1
            } }
            m = next
            size *= 2
        }
        return m.map { (Float($0) + 0.5) / 64 }
    }()
}

