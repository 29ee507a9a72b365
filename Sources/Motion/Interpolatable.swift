import RasterCore
import SnapshotView

/// A value an animation can move between two ends.
public protocol Interpolatable {
    /// The value `progress` of the way from `self` to `end`: exactly `self` at 0 and `end` at 1; outside
    /// 0…1 it extrapolates (a spring overshoots). NaN progress counts as 0.
    func interpolated(to end: Self, progress: Double) -> Self
}

/// Every animatable value interpolates component by component in one space (`ValueComponents`):
/// numbers, points, sizes and rects (a rect's origin is a scroll view's content offset) directly;
/// colours on straight (not premultiplied) sRGB components with alpha, clamped to 0…1 when extrapolated;
/// transforms on their ``TransformDecomposition``, with the rotation taking the shorter way round
/// (a half turn keeps the sign atan2 gives it: to `rotation(π)` turns clockwise, to `rotation(−π)`
/// counter-clockwise, as Core Animation does).
extension AnimatableValue: Interpolatable {
    /// Values of different kinds do not interpolate: `self` until progress reaches 1, then `end`.
    public func interpolated(to end: AnimatableValue, progress: Double) -> AnimatableValue {
        let p = progress.isNaN ? 0 : progress
        if p == 0 { return self }
        if p == 1 { return end }
        let from = ValueComponents(self), to = ValueComponents(end)
        guard from.kind == to.kind else { return p < 1 ? self : end }
        // The offset from the end back to the start, scaled by what remains: the additive form the
        // engine uses, so a single animation shows exactly these values.
        return to.adding(from.offset(from: to) * (1 - p))
    }
}

extension Double: Interpolatable {
    /// `self + (end − self) · progress`; progress outside 0…1 extrapolates.
    public func interpolated(to end: Double, progress: Double) -> Double {
        AnimatableValue.double(self).interpolated(to: .double(end), progress: progress).doubleValue ?? end
    }
}

extension Point: Interpolatable {
    /// Each coordinate interpolated.
    public func interpolated(to end: Point, progress: Double) -> Point {
        AnimatableValue.point(self).interpolated(to: .point(end), progress: progress).pointValue ?? end
    }
}

extension Size: Interpolatable {
    /// Each dimension interpolated.
    public func interpolated(to end: Size, progress: Double) -> Size {
        let r = Rect(origin: .zero, size: self).interpolated(to: Rect(origin: .zero, size: end), progress: progress)
        return r.size
    }
}

extension Rect: Interpolatable {
    /// Origin and size interpolated.
    public func interpolated(to end: Rect, progress: Double) -> Rect {
        AnimatableValue.rect(self).interpolated(to: .rect(end), progress: progress).rectValue ?? end
    }
}

extension Color: Interpolatable {
    /// Each straight (not premultiplied) sRGB component and alpha interpolated.
    public func interpolated(to end: Color, progress: Double) -> Color {
        AnimatableValue.color(self).interpolated(to: .color(end), progress: progress).colorValue ?? end
    }
}

extension Transform2D: Interpolatable {
    /// Interpolated by decomposition (translation, rotation the short way, scale, shear), as Core Animation does.
    public func interpolated(to end: Transform2D, progress: Double) -> Transform2D {
        AnimatableValue.transform(self).interpolated(to: .transform(end), progress: progress).transformValue ?? end
    }
}
