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
