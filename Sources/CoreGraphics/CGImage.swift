package import RasterCore

/// A bitmap image as Core Graphics has it: pixels, `width` × `height`, without a point size (UIKit's
/// `UIImage` adds the scale). Immutable.
public final class CGImage: Equatable, @unchecked Sendable {
    /// The pixels, premultiplied RGBA8 (package access: Smokescreen's renderer draws them).
    package let bitmap: Bitmap

    package init(bitmap: Bitmap) { self.bitmap = bitmap }

    /// Pixels across.
    public var width: Int { bitmap.width }
    /// Pixels down.
    public var height: Int { bitmap.height }
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { bitmap.width * 4 }

    /// The part of the image inside `rect` (pixels), clipped to the image; nil when nothing is left.
    public func cropping(to rect: CGRect) -> CGImage? {
        let r = rect.standardized.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !r.isNull, r.width >= 1, r.height >= 1, let cropped = try? bitmap.cropped(to: PixelRect(x: Int(r.minX), y: Int(r.minY), width: Int(r.width), height: Int(r.height))) else { return nil }
        return CGImage(bitmap: cropped)
    }

    public static func == (lhs: CGImage, rhs: CGImage) -> Bool { lhs === rhs || lhs.bitmap == rhs.bitmap }
}
