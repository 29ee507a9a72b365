import RasterCore

/// A view that draws custom content between its background and its subviews (UIKit's `draw(_:)`).
open class DrawingView: View {
    /// What to draw, in the view's bounds coordinates (points). Default nil.
    public var drawing: (any ViewContent)?

    /// A view that draws `drawing` in its bounds.
    public init(frame: Rect = .zero, drawing: (any ViewContent)?, name: String? = nil) {
        self.drawing = drawing
        super.init(frame: frame, name: name)
        isOpaque = false
    }

    /// The drawing.
    open override func makeContent() -> (any ViewContent)? { drawing }

    /// True: like a UIKit view that overrides `draw(_:)`, the drawing is rasterized on the view's own
    /// pixel grid and that bitmap is moved (see ``View/drawsContentIntoBackingStore``).
    open override var drawsContentIntoBackingStore: Bool { true }
}
