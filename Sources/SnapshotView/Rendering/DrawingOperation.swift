import RasterCore

/// One shape a view's custom drawing fills: the vocabulary of content that can say what it draws as
/// data, so that another engine (the reference renderer of the tests) can draw the same geometry.
public enum DrawingOperation: Sendable, Equatable {
    /// An axis-aligned rectangle (user space, points), filled with `Painter.fill(_:color:)`.
    case rect(Rect, Color)
    /// A rounded rectangle, filled with `Painter.fill(roundedRect:cornerRadii:color:)`.
    case roundedRect(Rect, CornerRadii, Color)
    /// Any path, filled under the non-zero rule with `Painter.fill(_:color:)`.
    case path(Path, Color)

    /// Fills the shape with `painter`: exactly the call the operation names.
    public func draw(in painter: Painter) {
        switch self {
        case .rect(let r, let c): painter.fill(r, color: c)
        case .roundedRect(let r, let radii, let c): painter.fill(roundedRect: r, cornerRadii: radii, color: c)
        case .path(let p, let c): painter.fill(p, color: c)
        }
    }
}

/// Content whose drawing is a list of ``DrawingOperation``s, filled in order: Smokescreen draws it by
/// filling them, and `RenderNode.drawnDescription` exports them as geometry instead of pixels. Content
/// that is not an `OperationContent` (a page curl's mesh) is exported as a raster drawn by Smokescreen.
public protocol OperationContent: ViewContent {
    /// The shapes, in the view's bounds coordinates (points), back to front.
    func operations(in bounds: Rect) -> [DrawingOperation]
}

extension OperationContent {
    /// Fills ``operations(in:)`` in order.
    public func draw(in painter: Painter, bounds: Rect) {
        for operation in operations(in: bounds) { operation.draw(in: painter) }
    }
}
