import RasterCore

extension RenderNode {
    /// Draws the node into `painter`, whose user space is the parent's bounds coordinates (points).
    public func draw(in painter: Painter) {
        guard drawCount > 0 else { return }
        painter.save()
        defer { painter.restore() }
        painter.concatenate(transformToParent)
        if alpha < 1 && drawCount > 1 {
            // Group opacity: the subtree goes into one layer, blended once. The layer is bounded to
            // what the subtree can touch, so a small translucent view does not cost a full-size layer.
            if let box = PixelRect(enclosing: painter.transform.apply(to: visualBounds)), painter.transform.preservesAxisAlignment {
                painter.clip(toPixels: box)
            }
            painter.beginLayer()
            drawBody(in: painter)
            painter.endLayer(opacity: alpha)
        } else {
            painter.alpha *= alpha
            drawBody(in: painter)
        }
    }

    /// Draws the node in its own bounds coordinates, without its own transform and alpha: background,
    /// content, subviews (clipped to the rounded bounds when `clipsToBounds`), then the border on top.
    public func drawBody(in painter: Painter) {
        if let backgroundColor {
            painter.fill(roundedRect: bounds, cornerRadii: radii, color: backgroundColor)
        }
        if content != nil || !children.isEmpty {
            painter.save()
            if clipsToBounds {
                if cornerRadius > 0 { painter.clip(to: Path(roundedRect: bounds, cornerRadii: radii)) } else { painter.clip(to: bounds) }
            }
            content?.draw(in: painter, bounds: bounds)
            for child in children { child.draw(in: painter) }
            painter.restore()
        }
        if drawsBorder {
            painter.strokeBorder(of: bounds, width: borderWidth, cornerRadii: radii, color: borderColor)
        }
    }
}
