/// Anti-aliased clip coverage over a box of device pixels: 255 inside the clip, 0 outside, partial
/// values on anti-aliased edges. Pixels outside `box` are outside the clip.
struct ClipMask {
    var box: PixelRect
    var values: [UInt8]

    init(box: PixelRect) {
        self.box = box
        values = [UInt8](repeating: 0, count: box.width * box.height)
    }

    /// The mask value at device pixel (x, y), 0 outside the box.
    func value(x: Int, y: Int) -> UInt8 {
        guard x >= box.minX, x < box.maxX, y >= box.minY, y < box.maxY else { return 0 }
        return values[(y - box.minY) * box.width + (x - box.minX)]
    }
}
