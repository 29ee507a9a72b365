import RasterCore

/// Told when a scroll view scrolls, as UIKit's `UIScrollViewDelegate`. Every method has a default that
/// does nothing, so an adopter implements only what it needs.
public protocol ScrollViewDelegate: AnyObject {
    /// The content offset changed (set directly, or by one frame of an animated scroll). Code that keeps
    /// a view in place on screen while the content moves (a floating view) repositions it here.
    func scrollViewDidScroll(_ scrollView: ScrollView)
    /// An animated scroll (`setContentOffset(_:animated:)`, `scrollToRow(at:at:animated:)`) ended.
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
}

extension ScrollViewDelegate {
    /// Does nothing.
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    /// Does nothing.
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
}

/// A view whose bounds origin scrolls over a larger content area, as UIKit's `UIScrollView`.
///
/// `contentOffset` is `bounds.origin`, so animating the bounds animates scrolling. Scroll views clip to
/// their bounds by default, as UIKit's do. Offsets outside the content (negative ones, past the end:
/// where a bounce takes the content) are kept as set.
open class ScrollView: View {
    /// The size of the scrollable content (points). Default zero. Not animatable.
    public var contentSize: Size = .zero

    /// Told of every change of the content offset. Not retained. Default nil.
    public weak var delegate: (any ScrollViewDelegate)?

    /// A scroll view that clips to its bounds, with no content size.
    public override init(frame: Rect = .zero, name: String? = nil) {
        super.init(frame: frame, name: name)
        clipsToBounds = true
    }

    /// The point of the content shown at the top-left corner (points): `bounds.origin`.
    public var contentOffset: Point {
        get { bounds.origin }
        set { bounds = Rect(origin: newValue, size: bounds.size) }
    }

    /// The largest offset that keeps the content filling the view (points), never negative.
    public var maximumContentOffset: Point {
        Point(x: max(0, contentSize.width - bounds.width), y: max(0, contentSize.height - bounds.height))
    }

    /// UIScrollView's rubber-band constant: how stiff the content is when pulled past an edge.
    public static let rubberBandConstant = 0.55

    /// How far the content shows past an edge when the finger has pulled it `overscroll` points past
    /// it: UIScrollView's rubber band, f(x) = (1 − 1 / (x·c / d + 1))·d with c = ``rubberBandConstant``
    /// and d the view's dimension along the pull (its height for a vertical pull). Odd in `x` (a pull
    /// the other way gives the negative), f(0) = 0, slope c at 0, and always less than d.
    public static func rubberBand(_ overscroll: Double, dimension d: Double, constant c: Double = rubberBandConstant) -> Double {
        guard d > 0, d.isFinite, overscroll.isFinite else { return 0 }
        let x = abs(overscroll)
        let f = (1 - 1 / (x * c / d + 1)) * d
        return overscroll < 0 ? -f : f
    }

    /// The finger's pull past an edge that shows the content `distance` points past it: the inverse of
    /// ``rubberBand(_:dimension:constant:)``, x = d·f / (c·(d − f)); nil when `distance` is d or more.
    public static func rubberBandPull(showing distance: Double, dimension d: Double, constant c: Double = rubberBandConstant) -> Double? {
        let f = abs(distance)
        guard d > 0, d.isFinite, f < d, c > 0 else { return nil }
        let x = d * f / (c * (d - f))
        return distance < 0 ? -x : x
    }

    /// Calls ``didScroll()`` when the offset moved.
    open override func boundsDidChange(from old: Rect) {
        if old.origin != bounds.origin { didScroll() }
    }

    /// The content offset changed: tells the delegate. Subclasses that lay out content for the visible
    /// area (a table view) override it, do their layout, and call `super`.
    open func didScroll() {
        delegate?.scrollViewDidScroll(self)
    }

    /// The view's summary with the content size and offset.
    open override var summary: String {
        super.summary + " contentSize \(contentSize) offset \(contentOffset)"
    }
}
