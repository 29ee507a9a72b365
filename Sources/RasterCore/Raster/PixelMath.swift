/// Integer pixel arithmetic on premultiplied RGBA8, shared by every blending loop.
///
/// Two channels travel together in one `UInt32` (R and B in the even bytes, G and A in the odd ones,
/// each spread to 16 bits), so one multiply scales two channels. Division by 255 rounds to nearest
/// exactly: `(x + 128 + ((x + 128) >> 8)) >> 8` equals `round(x / 255)` for every `x` in 0…65025.
/// Arithmetic wraps (`&+`, `&*`) so that an invalid premultiplied input cannot trap; valid inputs never
/// overflow a lane.
@usableFromInline
package enum PixelMath {
    /// `round(x / 255)` for `x` in 0…65025.
    @inlinable @inline(__always)
    package static func div255(_ x: UInt32) -> UInt32 {
        let t = x &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// Every channel of `pixel` times `factor / 255` (factor 0…255), rounded to nearest.
    @inlinable @inline(__always)
    package static func scale(_ pixel: UInt32, by factor: UInt32) -> UInt32 {
        let rb = (pixel & 0x00FF_00FF) &* factor &+ 0x0080_0080
        let ga = ((pixel >> 8) & 0x00FF_00FF) &* factor &+ 0x0080_0080
        let rbDiv = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        let gaDiv = ((ga &+ ((ga >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        return rbDiv | (gaDiv << 8)
    }

    /// Source-over: `src + dst·(255 − srcA)/255` per channel.
    @inlinable @inline(__always)
    package static func sourceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        src &+ scale(dst, by: 255 &- (src >> 24))
    }

    /// Linear interpolation from `dst` to `src` by `t / 255` (the copy blend under partial coverage).
    @inlinable @inline(__always)
    static func lerp(_ src: UInt32, _ dst: UInt32, _ t: UInt32) -> UInt32 {
        scale(src, by: t) &+ scale(dst, by: 255 &- t)
    }

    /// A device coordinate as an `Int`, clamped to ±1e9 (far outside any bitmap; NaN gives 0), so that no
    /// conversion can trap whatever geometry a caller passes. Round first if needed.
    @inlinable @inline(__always)
    static func clampedInt(_ v: Double) -> Int {
        v.isNaN ? 0 : Int(min(max(v, -1e9), 1e9))
    }

    /// A sample position in 1/256 pixel, clamped to 0…`limit` and rounded; NaN gives 0.
    @inlinable @inline(__always)
    static func samplePosition(_ v: Double, limit: Double) -> Int {
        v.isNaN ? 0 : Int(min(max(v, 0), limit) + 0.5)
    }

    /// A coverage fraction (0…1) as a byte, rounding halves up: 0.5 → 128.
    @inlinable @inline(__always)
    static func coverageByte(_ c: Double) -> UInt8 {
        UInt8(truncatingIfNeeded: Int(min(1, max(0, c)) * 255 + 0.5))
    }
}

extension PixelRect {
    /// The whole pixels a device-space rectangle touches (edges rounded outwards), clamped to ±1e9 so
    /// that no conversion traps; nil for the null rectangle and for non-finite geometry.
    public init?(enclosing rect: Rect) {
        guard rect.isFinite, !rect.isNull else { return nil }
        let x0 = PixelMath.clampedInt(rect.minX.rounded(.down)), y0 = PixelMath.clampedInt(rect.minY.rounded(.down))
        self.init(x: x0, y: y0, width: PixelMath.clampedInt(rect.maxX.rounded(.up)) - x0,
                  height: PixelMath.clampedInt(rect.maxY.rounded(.up)) - y0)
    }

    /// The whole pixels a device-space rectangle covers entirely (edges rounded inwards), clamped to ±1e9:
    /// the pixels a fill of the rectangle gives full coverage. Nil for the null rectangle, for non-finite
    /// geometry and when no pixel is wholly inside.
    public init?(inside rect: Rect) {
        guard rect.isFinite, !rect.isNull else { return nil }
        let x0 = PixelMath.clampedInt(rect.minX.rounded(.up)), y0 = PixelMath.clampedInt(rect.minY.rounded(.up))
        let x1 = PixelMath.clampedInt(rect.maxX.rounded(.down)), y1 = PixelMath.clampedInt(rect.maxY.rounded(.down))
        guard x0 < x1, y0 < y1 else { return nil }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether every pixel of `other` is inside this rectangle (an empty `other` is inside any).
    public func contains(_ other: PixelRect) -> Bool {
        other.isEmpty || (other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY)
    }

    /// The smallest rectangle containing both (an empty one adds nothing).
    public func union(_ other: PixelRect) -> PixelRect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        let x0 = Swift.min(minX, other.minX), y0 = Swift.min(minY, other.minY)
        return PixelRect(x: x0, y: y0, width: Swift.max(maxX, other.maxX) - x0, height: Swift.max(maxY, other.maxY) - y0)
    }

    /// The number of pixels inside (0 when empty).
    public var area: Int { isEmpty ? 0 : width.multipliedReportingOverflow(by: height).overflow ? .max : width * height }

    /// This rectangle without `other`: at most four rectangles (the bands above and below `other`, then
    /// left and right of it), which do not overlap.
    public func subtracting(_ other: PixelRect) -> [PixelRect] {
        let cut = intersection(other)
        if cut.isEmpty { return isEmpty ? [] : [self] }
        var pieces: [PixelRect] = []
        if cut.minY > minY { pieces.append(PixelRect(x: minX, y: minY, width: width, height: cut.minY - minY)) }
        if maxY > cut.maxY { pieces.append(PixelRect(x: minX, y: cut.maxY, width: width, height: maxY - cut.maxY)) }
        if cut.minX > minX { pieces.append(PixelRect(x: minX, y: cut.minY, width: cut.minX - minX, height: cut.height)) }
        if maxX > cut.maxX { pieces.append(PixelRect(x: cut.maxX, y: cut.minY, width: maxX - cut.maxX, height: cut.height)) }
        return pieces
    }
}
