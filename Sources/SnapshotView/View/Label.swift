import Foundation
import RasterCore
import Typesetting

/// A view that shows text, as UIKit's `UILabel`: laid out in its bounds and centred vertically.
///
/// Text is laid out in points, independently of the pixel scale, so a label breaks into the same lines
/// at @1x, @2x and @3x (see `TextLayout`). ``sizeThatFits(_:)`` gives the size the label draws at, so
/// a row can size itself to its text. Labels are not opaque and have no background by default.
///
/// Layout errors (a font that cannot be found or opened) are thrown by ``layout()``,
/// ``sizeThatFits(_:)`` and ``sizeToFit()``; a label whose layout fails draws nothing, so call one of
/// them when building a tree to surface the error.
open class Label: View {
    /// Default empty.
    public var text: String { didSet { invalidate() } }
    /// Font, colour, alignment, number of lines (default 1), line break mode (default truncating the
    /// tail) and line spacing, with `UILabel`'s defaults.
    public var style: TextStyle { didSet { invalidate() } }

    private var cached: (key: LayoutKey, layout: TextLayout)?
    private struct LayoutKey: Equatable { var size: Size }

    /// A label; not opaque, with no background. Frame in points.
    public init(text: String = "", style: TextStyle = TextStyle(), frame: Rect = .zero, name: String? = nil) {
        self.text = text
        self.style = style
        super.init(frame: frame, name: name)
        isOpaque = false
    }

    /// Default `.system(size: 17)`.
    public var font: Font {
        get { style.font }
        set { style.font = newValue }
    }
    /// Default black.
    public var textColor: Color {
        get { style.color }
        set { style.color = newValue }
    }
    /// Default natural (left).
    public var textAlignment: TextAlignment {
        get { style.alignment }
        set { style.alignment = newValue }
    }
    /// 0 means no limit. Default 1.
    public var numberOfLines: Int {
        get { style.numberOfLines }
        set { style.numberOfLines = newValue }
    }
    /// Default truncating the tail.
    public var lineBreakMode: LineBreakMode {
        get { style.lineBreakMode }
        set { style.lineBreakMode = newValue }
    }

    /// The size (points) the text takes within `size` (infinite for no limit), rounded up to whole points
    /// as `UILabel.sizeThatFits(_:)`: for a width, the exact height the label draws at.
    public func sizeThatFits(_ size: Size) throws -> Size {
        try TextLayout.size(of: text, style: style, fitting: size)
    }

    /// Resizes the label to fit its text on one line per paragraph, or at its current width when
    /// `numberOfLines` is not 1; keeps the top-left corner of the frame.
    public func sizeToFit() throws {
        let width = numberOfLines == 1 ? Double.infinity : bounds.width
        let fitted = try sizeThatFits(Size(width: width, height: .infinity))
        let origin = frame.origin
        frame = Rect(origin: origin, size: fitted)
    }

    /// The text laid out in the current bounds.
    public func layout() throws -> TextLayout {
        try layout(for: bounds.size)
    }

    func layout(for size: Size) throws -> TextLayout {
        let key = LayoutKey(size: size)
        if let cached, cached.key == key { return cached.layout }
        let layout = try TextLayout(text, style: style, width: size.width, height: size.height)
        cached = (key, layout)
        return layout
    }

    private func invalidate() { cached = nil }

    /// The text laid out in the bounds, centred vertically.
    open override func makeContent() -> (any ViewContent)? {
        guard !text.isEmpty, let layout = try? layout() else { return nil }
        return TextContent(layout: layout)
    }

    /// The view's summary with the text.
    open override var summary: String {
        let shown = text.count > 40 ? String(text.prefix(39)) + "…" : text
        return super.summary + " text \"\(shown.replacingOccurrences(of: "\n", with: "⏎"))\" \(style.font)"
    }
}

/// Laid-out text, drawn centred vertically in whatever bounds it is drawn with, and clipped to them: a
/// label's text lives in its layer's backing store, which is the size of its bounds, so ink that
/// overhangs them (a glyph's negative side bearing, text taller than the label) is cut off, as in
/// UIKit, and a snapshot of the label shows exactly what the label shows.
struct TextContent: ViewContent {
    let layout: TextLayout
    func draw(in painter: Painter, bounds: Rect) {
        painter.save()
        painter.clip(to: bounds)
        layout.draw(in: painter, rect: bounds)
        painter.restore()
    }
}
