import Foundation
import Motion
import RasterCore
import SnapshotView

extension TableView {
    /// Scrolls to `offset` (points; offsets outside the content, as a bounce takes it, are kept), as
    /// `setContentOffset(_:animated:)`. Animated, the offset is set afresh at every frame of the engine's
    /// clock over ``scrollAnimationDuration`` seconds, ease-in-ease-out, as a scroll view does (not as one
    /// layer animation): rows come and go and the delegate's `scrollViewDidScroll` runs at each frame,
    /// so a view it positions is exact in every frame. A new scroll replaces one in flight, starting
    /// from where it is.
    public func setContentOffset(_ offset: Point, animated: Bool) {
        guard offset.isFinite else { return }
        scrollLink?.invalidate()
        scrollLink = nil
        guard animated, let engine = animationEngine, scrollAnimationDuration > 0 else {
            ViewChangeObservation.withoutObserver { contentOffset = offset }
            return
        }
        let start = contentOffset, begin = engine.currentTime, duration = scrollAnimationDuration
        scrollLink = engine.addDisplayLink(duration: duration) { [weak self] time in
            guard let self else { return }
            let p = TimingCurve.easeInEaseOut.progress(at: min(1, max(0, (time - begin) / duration)))
            let point = Point(x: start.x + (offset.x - start.x) * p, y: start.y + (offset.y - start.y) * p)
            ViewChangeObservation.withoutObserver { self.contentOffset = time >= begin + duration ? offset : point }
            if time >= begin + duration {
                self.scrollLink = nil
                self.delegate?.scrollViewDidEndScrollingAnimation(self)
            }
        }
    }

    /// The bounce back's spring: critically damped, natural frequency ``bounceFrequency`` (rad/s).
    /// UIKit does not document it; a critically damped spring of stiffness 100 and mass 1 (ω = 10/s) is
    /// what reimplementations of UIScrollView that match it by eye use, and it has no overshoot and no
    /// flat hold: the content starts back at once, from the velocity it had.
    public static let bounceFrequency = 10.0
    /// The bounce ends (the offset set to the edge exactly) once it is within this many points of it.
    public static let bounceRestDistance = 0.1

    /// Drags the content as a finger would and lifts it, as a pan on a `UIScrollView` moves it: over
    /// `duration` seconds the finger moves `translation` points down (negative: up) at constant speed,
    /// and the content follows it within the content's edges; past an edge it follows UIScrollView's
    /// rubber band (``ScrollView/rubberBand(_:dimension:constant:)``, d = the table's height), so it
    /// shows less and less of the pull. When the finger lifts past an edge, the content springs back to
    /// it at once (no hold), starting with the velocity it had under the finger, on a critically damped
    /// spring (``bounceFrequency``):
    /// x(t) = (x₀ + (v₀ + ω·x₀)·t)·e^(−ω·t), x the distance past the edge. Lifted inside the content it
    /// stops there (no deceleration). `scrollViewDidScroll` runs at every frame. Without an animation
    /// engine the content goes straight to where it comes to rest.
    public func dragContent(by translation: Double, duration: Double) {
        guard translation.isFinite, duration.isFinite, duration >= 0 else { return }
        scrollLink?.invalidate()
        scrollLink = nil
        let d = bounds.height
        let minY = 0.0, maxY = maximumContentOffset.y
        // The finger's position as an unbounded offset, and what the content shows for it.
        func shown(_ raw: Double) -> Double {
            if raw < minY { return minY + ScrollView.rubberBand(raw - minY, dimension: d) }
            if raw > maxY { return maxY + ScrollView.rubberBand(raw - maxY, dimension: d) }
            return raw
        }
        func slope(_ raw: Double) -> Double {
            let x = raw < minY ? minY - raw : raw > maxY ? raw - maxY : 0
            guard x > 0, d > 0 else { return 1 }
            let k = x * ScrollView.rubberBandConstant / d + 1
            return ScrollView.rubberBandConstant / (k * k)
        }
        let y0 = contentOffset.y
        let rawStart: Double
        if y0 < minY { rawStart = minY + (ScrollView.rubberBandPull(showing: y0 - minY, dimension: d) ?? (y0 - minY)) }
        else if y0 > maxY { rawStart = maxY + (ScrollView.rubberBandPull(showing: y0 - maxY, dimension: d) ?? (y0 - maxY)) }
        else { rawStart = y0 }
        let rawEnd = rawStart - translation
        let release = shown(rawEnd)
        let edge = min(max(release, minY), maxY)
        let x0 = release - edge
        // Velocity of the content at the lift (points/s), continuous into the spring.
        let v0 = duration > 0 ? -translation / duration * slope(rawEnd) : 0
        let omega = Self.bounceFrequency
        let springDuration = x0 == 0 ? 0 : Self.settlingTime(x0: x0, v0: v0, omega: omega, within: Self.bounceRestDistance)
        let x = contentOffset.x
        guard let engine = animationEngine, duration + springDuration > 0 else {
            ViewChangeObservation.withoutObserver { contentOffset = Point(x: x, y: edge) }
            return
        }
        let begin = engine.currentTime
        scrollLink = engine.addDisplayLink(duration: duration + springDuration) { [weak self] time in
            guard let self else { return }
            let t = time - begin
            let y: Double
            if t >= duration + springDuration {
                y = edge
            } else if t <= duration {
                y = shown(rawStart + (rawEnd - rawStart) * (duration > 0 ? t / duration : 1))
            } else {
                let u = t - duration
                y = edge + (x0 + (v0 + omega * x0) * u) * exp(-omega * u)
            }
            ViewChangeObservation.withoutObserver { self.contentOffset = Point(x: x, y: y) }
            if t >= duration + springDuration {
                self.scrollLink = nil
                self.delegate?.scrollViewDidEndScrollingAnimation(self)
            }
        }
    }

    /// When a critically damped spring from x₀ with velocity v₀ stays within `distance` of its rest
    /// for good (seconds, to the millisecond, at most 4 s).
    static func settlingTime(x0: Double, v0: Double, omega: Double, within distance: Double) -> Double {
        var last = 0.0
        var t = 0.0
        while t <= 4 {
            if abs((x0 + (v0 + omega * x0) * t) * exp(-omega * t)) >= distance { last = t + 0.001 }
            t += 0.001
        }
        return min(4, last)
    }

    /// Scrolls so that the row is at `position`, as `scrollToRow(at:at:animated:)`: `.top`, `.middle`
    /// or `.bottom` of the bounds, or for `.none` as little as shows it whole. The offset is kept within
    /// the content (no bounce). Animated as ``setContentOffset(_:animated:)``.
    public func scrollToRow(at indexPath: IndexPath, at position: TableViewScrollPosition, animated: Bool) {
        guard layout.contains(indexPath) else { return }
        let rect = layout.rectForRow(at: indexPath)
        let height = bounds.height
        var y: Double
        switch position {
        case .top: y = rect.minY
        case .middle: y = rect.midY - height / 2
        case .bottom: y = rect.maxY - height
        case .none:
            if rect.minY < bounds.minY { y = rect.minY } else if rect.maxY > bounds.maxY { y = rect.maxY - height } else { return }
        }
        y = min(max(0, y), max(0, layout.contentHeight - height))
        setContentOffset(Point(x: contentOffset.x, y: y), animated: animated)
    }
}
