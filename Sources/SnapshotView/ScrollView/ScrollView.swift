import RasterCore

/// A view whose bounds origin scrolls over a larger content area, as UIKit's `UIScrollView`.
///
/// `contentOffset` is `bounds.origin`, so animating the bounds animates scrolling. Scroll views clip to
/// their bounds by default, as UIKit's do.
open class ScrollView: View {
    /// The size of the scrollable content (points). Default zero. Not animatable.
    public var contentSize: Size = .zero

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

    /// The view's summary with the content size and offset.
    open override var summary: String {
        super.summary + " contentSize \(contentSize) offset \(contentOffset)"
    }
}
