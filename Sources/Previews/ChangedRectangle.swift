import Foundation
import RasterCore

extension Bitmap {
    /// The smallest rectangle (pixels) holding every pixel where this bitmap differs from `earlier`, a
    /// bitmap of the same size; nil when every pixel is the same. What an animated GIF or PNG frame needs
    /// to store of a frame over the one before it.
    package func changedRectangle(since earlier: Bitmap) -> PixelRect? {
        precondition(width == earlier.width && height == earlier.height, "frames of one animation have one size")
        let width = self.width, height = self.height
        return withUnsafePixels { new in
            earlier.withUnsafePixels { old -> PixelRect? in
                let a = old.baseAddress!, b = new.baseAddress!
                func rowDiffers(_ y: Int) -> Bool { memcmp(a + y * width, b + y * width, width * 4) != 0 }
                guard let top = (0..<height).first(where: rowDiffers) else { return nil }
                let bottom = (top..<height).last(where: rowDiffers)!
                // Columns: only what can still widen the rectangle is looked at, row by row.
                var left = width, right = -1
                for y in top...bottom {
                    let row = y * width
                    var x = 0
                    while x < left, a[row + x] == b[row + x] { x += 1 }
                    left = min(left, x)
                    var r = width - 1
                    while r > right, a[row + r] == b[row + r] { r -= 1 }
                    right = max(right, r)
                }
                return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            }
        }
    }
}

/// Which frames an animation stores, and the rectangle of each: a frame with the pixels of the one
/// before is not stored (the frame before shows for its time too), every other frame after the first
/// stores the rectangle that changed.
package struct StoredFrames {
    /// The frames stored, in order, with their rectangles (the first: the whole frame).
    package var frames: [(index: Int, rectangle: PixelRect)] = []

    /// How long each stored frame shows (seconds): its own display duration and those of the frames
    /// after it that repeat it.
    package func durations(of all: PreviewFrames) -> [Double] {
        let durations = all.displayDurations
        return frames.indices.map { k in
            durations[frames[k].index..<(k + 1 < frames.count ? frames[k + 1].index : durations.count)].reduce(0, +)
        }
    }

    /// Walks every frame of `all` once, in order, and calls `body` with each frame stored, its index and
    /// its rectangle. Frames a render folder says repeat the one before are not read at all.
    package static func walk(_ all: PreviewFrames, _ body: (Bitmap, Int, PixelRect) throws -> Void) throws -> StoredFrames {
        var stored = StoredFrames()
        var previous: Bitmap?
        for index in all.times.indices {
            if try all.repeatsPrevious(index) { continue }
            let frame = try all.frame(index)
            let rectangle = previous.map { frame.changedRectangle(since: $0) } ?? frame.bounds
            previous = frame
            guard let rectangle else { continue }
            stored.frames.append((index, rectangle))
            try body(frame, index, rectangle)
        }
        return stored
    }
}
