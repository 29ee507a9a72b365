import RasterCore

/// One thing a view's custom drawing does (fill a shape, draw an image, clip or fade a few of them): the vocabulary of content that can say what it draws as
/// data, so that another engine (the reference renderer of the tests) can draw the same geometry.
public enum DrawingOperation: Sendable, Equatable {
    /// An axis-aligned rectangle (user space, points), filled with `Painter.fill(_:color:)`.
    case rect(Rect, Color)
    /// A rounded rectangle, filled with `Painter.fill(roundedRect:cornerRadii:color:)`.
    case roundedRect(Rect, CornerRadii, Color)
    /// Any path, filled under the non-zero rule with `Painter.fill(_:color:)`.
    case path(Path, Color)
    /// An image stretched into a rectangle, with `Painter.draw(_:in:)`.
    case image(Bitmap, Rect)
    /// Operations clipped to a rectangle (`Painter.clip(to:)` with a `Rect`).
    indirect case clippedToRect(Rect, [DrawingOperation])
    /// Operations clipped to a path (`Painter.clip(to:)` with a `Path`, anti-aliased).
    indirect case clippedToPath(Path, [DrawingOperation])
    /// An image through an affine placement (from the image's points to user space), drawn once
    /// (`Painter.drawOnce(_:transform:)`: no tile kept, for a mesh's pieces).
    case imageOnce(Bitmap, Transform2D)
    /// Operations in a user space moved by a transform (`Painter.concatenate(_:)`).
    indirect case transformed(Transform2D, [DrawingOperation])
    /// Operations drawn into one transparency layer composited once (`Painter.withLayer(opacity: 1)`):
    /// the clip around it applies once, to the layer, not to each operation inside.
    indirect case layer([DrawingOperation])
    /// Operations drawn with the painter's alpha multiplied by a factor (each blended on its own, not as
    /// a group); nothing when the factor is 0 or less.
    indirect case faded(Double, [DrawingOperation])

    /// Draws with `painter`: exactly the calls the operation names.
    public func draw(in painter: Painter) {
        switch self {
        case .rect(let r, let c): painter.fill(r, color: c)
        case .roundedRect(let r, let radii, let c): painter.fill(roundedRect: r, cornerRadii: radii, color: c)
        case .path(let p, let c): painter.fill(p, color: c)
        case .image(let image, let r): painter.draw(image, in: r)
        case .imageOnce(let image, let placement): painter.drawOnce(image, transform: placement)
        case .transformed(let t, let ops):
            painter.withSavedState {
                painter.concatenate(t)
                for op in ops { op.draw(in: painter) }
            }
        case .layer(let ops):
            painter.withLayer(opacity: 1) {
                for op in ops { op.draw(in: painter) }
            }
        case .clippedToRect(let r, let ops):
            painter.withSavedState {
                painter.clip(to: r)
                for op in ops { op.draw(in: painter) }
            }
        case .clippedToPath(let p, let ops):
            painter.withSavedState {
                painter.clip(to: p)
                for op in ops { op.draw(in: painter) }
            }
        case .faded(let factor, let ops):
            guard factor > 0 else { return }
            painter.withSavedState {
                painter.alpha *= factor
                for op in ops { op.draw(in: painter) }
            }
        }
    }
}

/// Content whose drawing is a list of ``DrawingOperation``s, filled in order: Smokescreen draws it by
/// filling them, and `RenderNode.drawnDescription` exports them as geometry instead of pixels. Content
/// that is not an `OperationContent` is exported as a raster drawn by Smokescreen.
public protocol OperationContent: ViewContent {
    /// The operations, in the view's bounds coordinates (points), back to front.
    func operations(in bounds: Rect) -> [DrawingOperation]
    /// The same for a painter whose transform (bounds coordinates to device pixels) is `device`, for a
    /// drawing that depends on the pixel size. Default: ``operations(in:)``.
    func operations(in bounds: Rect, device: Transform2D) -> [DrawingOperation]
}

extension OperationContent {
    /// ``operations(in:)``.
    public func operations(in bounds: Rect, device: Transform2D) -> [DrawingOperation] { operations(in: bounds) }

    /// True when the first operation fills a rectangle containing `bounds` with an opaque colour.
    public func paintsOpaquely(over bounds: Rect) -> Bool {
        guard case .rect(let r, let color)? = operations(in: bounds).first else { return false }
        return color.alpha >= 1 && r.minX <= bounds.minX && r.minY <= bounds.minY && r.maxX >= bounds.maxX && r.maxY >= bounds.maxY
    }

    /// Draws ``operations(in:device:)`` in order, for the painter's transform, without what later ones
    /// cover opaquely (``DrawingOperation/draw(_:in:)``).
    public func draw(in painter: Painter, bounds: Rect) {
        DrawingOperation.draw(operations(in: bounds, device: painter.transform), in: painter)
    }
}
