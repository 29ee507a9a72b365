import BoundedInput
import Foundation
import RasterCore
import SnapshotView
import TransitionCompositor
import Typesetting

/// A contact sheet: a grid of frames, each labelled with its index and time, and under it the animation
/// blocks as a timeline strip (one bar per block from its start to its end, with a tick at every frame
/// shown), so a person sees the whole transition at a glance.
///
/// The grid takes every Nth frame so that at most ``Layout/rows`` rows of ``Layout/tileWidth``-pixel tiles
/// fit ``Layout/width``, and always the last frame. Drawn at 1 pixel per point.
public enum ContactSheet {
    /// The sheet's measures (pixels).
    public struct Layout: Sendable, Equatable {
        /// The sheet's width. Default 1200.
        public var width = 1200
        /// Each tile's width; its height follows the frames' aspect. Default 180.
        public var tileWidth = 180
        /// At most this many rows of tiles (one more when the last frame needs it). Default 4.
        public var rows = 4
        /// Space around and between tiles. Default 12.
        public var gap = 12

        /// The defaults.
        public init() {}

        /// Tiles per row.
        public var columns: Int { max(1, (width - gap) / (tileWidth + gap)) }
    }

    /// The frames a sheet of `layout` shows out of `count`: every Nth, and the last.
    public static func chosenFrames(count: Int, layout: Layout) -> [Int] {
        guard count > 0 else { return [] }
        let capacity = max(1, layout.columns * max(1, layout.rows))
        let every = max(1, Int((Double(count) / Double(capacity)).rounded(.up)))
        var chosen = Array(stride(from: 0, to: count, by: every))
        if chosen.last != count - 1 { chosen.append(count - 1) }
        return chosen
    }

    static let labelHeight = 18.0, titleHeight = 30.0, barHeight = 16.0
    static let ink = Color(white: 0.15), faint = Color(white: 0.55)
    static let barColors = [Color(red8: 0x4A, green8: 0x90, blue8: 0xD9), Color(red8: 0xE0, green8: 0x8A, blue8: 0x3C),
                            Color(red8: 0x5C, green8: 0xB8, blue8: 0x5C), Color(red8: 0xB0, green8: 0x6A, blue8: 0xC8),
                            Color(red8: 0xD9, green8: 0x53, blue8: 0x4F), Color(red8: 0x3C, green8: 0xA8, blue8: 0xA8)]

    /// The size in pixels of the sheet of `frames` with `layout`, computed without drawing anything.
    public static func size(of frames: PreviewFrames, layout: Layout = Layout()) -> (width: Int, height: Int) {
        let m = measures(frames, layout: layout)
        return (layout.width, Int(min(m.height.rounded(.up), Double(Int32.max))))
    }

    /// Throws when the sheet of `frames` with `layout` would be over the bitmap limits
    /// (`Limits/bitmapMaxSide`, `Limits/bitmapMaxPixels`): checked before any tile is drawn.
    public static func checkSize(of frames: PreviewFrames, layout: Layout = Layout()) throws(PreviewError) {
        let (width, height) = size(of: frames, layout: layout)
        guard width <= Limits.bitmapMaxSide, height <= Limits.bitmapMaxSide, width * height <= Limits.bitmapMaxPixels else {
            throw PreviewError(description: "\(frames.name): the contact sheet would be \(width)x\(height) px, over the limits of \(Limits.bitmapMaxSide) px a side and \(Limits.bitmapMaxPixels) pixels",
                               exitStatus: ExitStatus.usage)
        }
    }

    private static func measures(_ frames: PreviewFrames, layout: Layout)
        -> (chosen: [Int], tileH: Double, columns: Int, stripTop: Double, height: Double, blocks: [TimelineEntry]) {
        let chosen = chosenFrames(count: frames.times.count, layout: layout)
        let gap = Double(layout.gap), tileW = Double(layout.tileWidth)
        let tileH = (tileW * Double(frames.pixelHeight) / Double(max(1, frames.pixelWidth))).rounded()
        let columns = layout.columns
        let rows = (chosen.count + columns - 1) / columns
        let blocks = frames.timeline.filter { $0.end.isFinite && $0.end > $0.start }
        let stripTop = titleHeight + gap + Double(rows) * (tileH + labelHeight + gap)
        let height = stripTop + (blocks.isEmpty ? 0 : Double(blocks.count) * (barHeight + 4) + gap * 2 + 14)
        return (chosen, tileH, columns, stripTop, height, blocks)
    }

    /// The sheet of `frames`.
    /// - Throws: ``PreviewError`` (exit 64) when the sheet would be over the bitmap limits, before any
    ///   tile is drawn (``checkSize(of:layout:)``).
    public static func make(_ frames: PreviewFrames, layout: Layout = Layout()) throws -> Bitmap {
        let (chosen, tileH, columns, stripTop, height, blocks) = measures(frames, layout: layout)
        guard !chosen.isEmpty else { throw PreviewError.failed("\(frames.name): no frames for a contact sheet") }
        try checkSize(of: frames, layout: layout)
        let gap = Double(layout.gap), tileW = Double(layout.tileWidth)
        let width = Double(layout.width)
        let end = frames.times.last ?? 0

        let sheet = View(frame: Rect(x: 0, y: 0, width: width, height: height), name: "sheet")
        sheet.backgroundColor = .white
        let fps = String(format: "%g", frames.fps)
        try sheet.addSubview(Label(text: "\(frames.name) — \(frames.times.count) frames at \(fps) fps, \(format(end)) s"
                                   + (chosen.count < frames.times.count ? "; every \(chosen.count > 1 ? chosen[1] - chosen[0] : 1) shown" : ""),
                                   style: TextStyle(font: .boldSystem(size: 15), color: ink),
                                   frame: Rect(x: gap, y: 6, width: width - 2 * gap, height: titleHeight - 6)))
        for (n, index) in chosen.enumerated() {
            let x = gap + Double(n % columns) * (tileW + gap)
            let y = titleHeight + gap + Double(n / columns) * (tileH + labelHeight + gap)
            let tile = try downscale(frames.frame(index), to: Size(width: tileW, height: tileH))
            let image = ImageView(image: tile, frame: Rect(x: x, y: y, width: tileW, height: tileH), name: "frame \(index)")
            image.borderWidth = 1
            image.borderColor = Color(white: 0.8)
            try sheet.addSubview(image)
            try sheet.addSubview(Label(text: "#\(index)  \(format(frames.times[index])) s", style: TextStyle(font: .system(size: 11), color: ink),
                                       frame: Rect(x: x, y: y + tileH + 2, width: tileW, height: labelHeight - 2)))
        }
        if !blocks.isEmpty && end > 0 {
            let left = gap, span = width - 2 * gap
            func xAt(_ t: Double) -> Double { left + span * min(1, max(0, t / end)) }
            for index in chosen {
                let tick = View(frame: Rect(x: xAt(frames.times[index]) - 0.5, y: stripTop, width: 1, height: Double(blocks.count) * (barHeight + 4)),
                                name: "tick \(index)")
                tick.backgroundColor = Color(white: 0.85)
                try sheet.addSubview(tick)
            }
            for (row, block) in blocks.enumerated() {
                let y = stripTop + Double(row) * (barHeight + 4)
                let bar = View(frame: Rect(x: xAt(block.start), y: y, width: max(2, xAt(block.end) - xAt(block.start)), height: barHeight),
                               name: "block \(block.label)")
                bar.backgroundColor = barColors[row % barColors.count]
                bar.cornerRadius = 3
                try sheet.addSubview(bar)
                try sheet.addSubview(Label(text: "\(block.label)  \(format(block.start))–\(format(block.end)) s",
                                           style: TextStyle(font: .system(size: 10), color: .white),
                                           frame: Rect(x: xAt(block.start) + 4, y: y, width: max(0, xAt(block.end) - xAt(block.start) - 6), height: barHeight)))
            }
            let axisY = stripTop + Double(blocks.count) * (barHeight + 4) + 2
            for (t, alignment) in [(0.0, TextAlignment.left), (end, .right)] {
                try sheet.addSubview(Label(text: "\(format(t)) s", style: TextStyle(font: .system(size: 10), color: faint, alignment: alignment),
                                           frame: Rect(x: alignment == .left ? left : left + span - 100, y: axisY, width: 100, height: 14)))
            }
        }
        var canvas = try Bitmap(width: Int(width), height: Int(height.rounded(.up)), scale: 1)
        guard let node = sheet.renderNode() else { throw PreviewError.failed("the contact sheet drew nothing") }
        ViewRenderer.draw(node, into: &canvas)
        return canvas
    }

    /// Seconds with up to three decimals.
    static func format(_ t: Double) -> String {
        var text = String(format: "%.3f", t)
        while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
        return text
    }

    /// The frame drawn into a new bitmap of `size` pixels (so only small tiles are kept).
    static func downscale(_ frame: Bitmap, to size: Size) throws -> Bitmap {
        let tile = try Bitmap(width: Int(size.width), height: Int(size.height), scale: 1)
        let painter = Painter(bitmap: tile)
        painter.draw(frame, in: Rect(x: 0, y: 0, width: size.width, height: size.height))
        return painter.finish()
    }
}
