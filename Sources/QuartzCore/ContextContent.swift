import CoreGraphics
package import RasterCore
internal import SnapshotView

/// What a `CGContext` recorded (a view's `draw(_:)`, a shape layer's path), drawn by Smokescreen's
/// renderer: fills, strokes and images.
package struct ContextContent: ViewContent {
    let operations: [CGContext.Operation]
    /// The bounds the drawing was made for (points); drawn into other bounds, it is stretched to them,
    /// as a view's backing store is while its bounds animate.
    let drawnBounds: Rect

    package init(_ context: CGContext, bounds: Rect) {
        operations = context.operations
        drawnBounds = bounds
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
                case .fill(let path, let color, let evenOdd):
                    painter.fill(path, color: color, rule: evenOdd ? .evenOdd : .nonZero)
                case .stroke(let path, let color, let style, let transform):
                    // Stroked in the user space of its context (a path already in device space is mapped
                    // back into it); a transform that flattens everything strokes nothing.
                    guard let inverse = transform.inverted() else { break }
                    painter.withSavedState {
                        painter.concatenate(transform)
                        painter.stroke(transform.isIdentity ? path : path.applying(inverse), style: style, color: color)
                    }
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
