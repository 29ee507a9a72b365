import RasterCore

/// How an ``ImageView`` places its image in its bounds: UIKit's `UIView.ContentMode`.
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
    /// Stretched to the bounds.
    case scaleToFill
    /// Scaled uniformly to fit inside the bounds, centred.
    case scaleAspectFit
    /// Scaled uniformly to cover the bounds, centred (spills over unless the view clips to bounds).
    case scaleAspectFill
    /// For an image, the same as `scaleToFill` (UIKit redraws custom content on bounds changes).
    case redraw
    /// Natural size, centred.
    case center
    /// Natural size, centred horizontally, at the top.
    case top
    /// Natural size, centred horizontally, at the bottom.
    case bottom
    /// Natural size, centred vertically, at the left.
    case left
    /// Natural size, centred vertically, at the right.
    case right
    /// Natural size, in the top-left corner.
    case topLeft
    /// Natural size, in the top-right corner.
    case topRight
    /// Natural size, in the bottom-left corner.
    case bottomLeft
    /// Natural size, in the bottom-right corner.
    case bottomRight

    /// Where an image of `imageSize` (points) goes in `bounds` (points).
    public func placement(of imageSize: Size, in bounds: Rect) -> Rect {
        let b = bounds.standardized
        let w = imageSize.width, h = imageSize.height
        switch self {
        case .scaleToFill, .redraw:
            return b
        case .scaleAspectFit, .scaleAspectFill:
            guard w > 0, h > 0 else { return Rect(origin: Point(x: b.midX, y: b.midY), size: .zero) }
            let sx = b.width / w, sy = b.height / h
            let s = self == .scaleAspectFit ? min(sx, sy) : max(sx, sy)
            return Rect(x: b.midX - w * s / 2, y: b.midY - h * s / 2, width: w * s, height: h * s)
        default:
            let x: Double = switch self {
            case .left, .topLeft, .bottomLeft: b.minX
            case .right, .topRight, .bottomRight: b.maxX - w
            default: b.midX - w / 2
            }
            let y: Double = switch self {
            case .top, .topLeft, .topRight: b.minY
            case .bottom, .bottomLeft, .bottomRight: b.maxY - h
            default: b.midY - h / 2
            }
            return Rect(x: x, y: y, width: w, height: h)
        }
    }
}
