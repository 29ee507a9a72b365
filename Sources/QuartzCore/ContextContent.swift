import CoreGraphics
package import RasterCore
internal import SnapshotView

/// What a `CGContext` recorded (a view's `draw(_:)`, a shape layer's path), drawn by Smokescreen's
/// renderer: fills and images. Strokes are recorded but not drawn yet (noted).
package struct ContextContent: ViewContent {
    let operations: [CGContext.Operation]
    /// The bounds the drawing was made for (points); drawn into other bounds, it is stretched to them,
    /// as a view's backing store is while its bounds animate.
    let drawnBounds: Rect

    package init(_ context: CGContext, bounds: Rect) {
        operations = context.operations
        drawnBounds = bounds
        for operation in operations {
            if case .fill(_, _, evenOdd: true) = operation { NotDrawn.note("even-odd fills (drawn with the non-zero rule)") }
            if case .stroke = operation { NotDrawn.note("strokes of paths (CGContext, UIBezierPath, CAShapeLayer)") }
        }
    }

    package var isEmpty: Bool { operations.isEmpty }

    package func draw(in painter: Painter, bounds: Rect) {
        painter.withSavedState {
            if bounds != drawnBounds, drawnBounds.width > 0, drawnBounds.height > 0 {
                painter.translate(x: bounds.minX, y: bounds.minY)
                painter.scale(x: bounds.width / drawnBounds.width, y: bounds.height / drawnBounds.height)
                painter.translate(x: -drawnBounds.minX, y: -drawnBounds.minY)
            }
            for operation in operations {
                switch operation {
                case .fill(let path, let color, _):
                    painter.fill(path, color: color)
                case .stroke:
                    break
                case .image(let image, let rect, let transform, let alpha):
                    painter.withSavedState {
                        painter.concatenate(transform)
                        painter.draw(image, in: rect, opacity: alpha)
                    }
                }
            }
        }
    }
}
