import Choreography
import Dispatch
import Foundation
import PNGIO
import RasterCore
import SnapshotView
import Synchronization
import Typesetting

/// The Vesper notes app of `shared/seeds/004_…txt`, as two screens: a timeline of notes and a note's
/// detail view. 375x667 pt, as an iPhone of the time.
///
/// Every piece the transitions move is named, so they find it with `view(named:)`:
/// `navigationBar`, `table`, `note 0`…, `note N title`, `note N body`, `note N thumbnail` in the
/// timeline; `detail navigationBar`, `detail image`, `detail title`, `detail body` in the detail view.
public struct VesperScene {
    /// One note of the timeline.
    public struct Note: Sendable {
        /// The note's title (bold, 17 pt in the timeline).
        public var title: String
        /// The note's text (two lines in the timeline, all of it in the detail view).
        public var body: String
        /// An image in `assets/vesper/`, or nil.
        public var image: String?
    }

    /// 375x667 points, an iPhone of the time.
    public static let pointSize = Size(width: 375, height: 667)
    /// The notes of the timeline, top to bottom.
    public static let notes: [Note] = [
        Note(title: "Harbor at dusk",
             body: "The fog came in just after six and the lights on the pier blinked on one by one. Remember the name of the little fish place with the blue door.",
             image: "harbor.png"),
        Note(title: "Coffee, ranked",
             body: "The flat white from the corner place still beats everything downtown. Try the Ethiopian pour-over on Saturday, and ask what they roast next week.",
             image: "coffee.png"),
        Note(title: "Groceries", body: "Lemons, olive oil, rye bread, two onions, something green.", image: nil),
        Note(title: "Chapter three",
             body: "She folded the letter twice and put it under the notebook, where nobody would think to look.",
             image: "notebook.png"),
        Note(title: "Ideas for the talk",
             body: "Start with the smokescreen story. Rects are hard; convertRect is your friend. End with the plist.",
             image: nil),
        Note(title: "京都のメモ", body: "来週の火曜日に京都へ行く。新幹線の切符と傘を忘れないこと。", image: nil),
    ]
    /// The note the transitions open.
    public static let selectedNote = 1

    static let background = Color.white
    static let barColor = Color(red8: 249, green8: 249, blue8: 249)
    static let hairline = Color(red8: 200, green8: 199, blue8: 204)
    static let accent = Color(red8: 87, green8: 123, blue8: 164)
    static let ink = Color(red8: 33, green8: 33, blue8: 36)
    static let secondary = Color(red8: 120, green8: 120, blue8: 128)

    static let cellTitleFont = Font.boldSystem(size: 17)
    static let cellBodyFont = Font.system(size: 15)
    static let detailTitleFont = Font.boldSystem(size: 22)
    static let detailBodyFont = Font.system(size: 17)
    static let barTitleFont = Font.boldSystem(size: 17)
    static let barBackFont = Font.system(size: 17)

    /// A screen of the app, for ``init(assetsDirectory:scale:preparing:)``.
    public enum Screen: Sendable {
        /// ``makeTimeline()``.
        case timeline
        /// ``makeDetail(note:)`` of the selected note.
        case detail
        /// ``makePicture(note:)`` (no text).
        case picture
    }

    /// The texts `screen` sets, each in its font.
    package static func texts(of screen: Screen) -> [(String, Font)] {
        switch screen {
        case .timeline: return notes.flatMap { [($0.title, cellTitleFont), ($0.body, cellBodyFont)] } + [("Timeline", barTitleFont)]
        case .detail: return [(notes[selectedNote].title, detailTitleFont), (notes[selectedNote].body, detailBodyFont), ("Timeline", barBackFont)]
        case .picture: return []
        }
    }

    /// Shapes the texts of `screens` into Typesetting's shared cache, opening their fonts and fallbacks
    /// the first time. Their labels then lay out from the cache, with the same result. Errors are left
    /// for the labels to report.
    static func prepareTexts(of screens: [Screen]) {
        for (text, font) in screens.flatMap(texts(of:)) { _ = try? TextLayout.size(of: text, style: TextStyle(font: font)) }
    }

    /// The note images, decoded, by the name the notes use.
    public let images: [String: Bitmap]
    /// The file each image came from, relative to the assets folder.
    public let imageFiles: [String: String]

    /// Loads the note images from `assets/vesper/` under `assetsDirectory`, in the variant for `scale`
    /// as an app would (`name.png` at @1x, `name@2x.png`, `name@3x.png`; the nearest one that exists).
    /// Meanwhile, on another core, it shapes the texts of `screens` (default none), which building
    /// those screens would otherwise do after the images: the screens come out the same either way.
    public init(assetsDirectory: String, scale: Double = 2, preparing screens: [Screen] = []) throws {
        let names = Set(VesperScene.notes.compactMap(\.image)).sorted()
        let variants = names.map { VesperScene.variant(of: "vesper/\($0)", scale: scale, in: assetsDirectory) }
        // The photos are decoded side by side (a few ms of a cold start otherwise spent on one core), their
        // bitmaps charged to this thread's ledger; the first failure in name order is the one reported.
        // Beside them the screens' texts are shaped: the first task, and the longest.
        let decoded = Mutex([Result<Bitmap, any Error>?](repeating: nil, count: names.count))
        let ledger = MemoryLedger.active
        DispatchQueue.concurrentPerform(iterations: names.count + 1) { i in
            guard i > 0 else { return VesperScene.prepareTexts(of: screens) }
            let i = i - 1
            let result = Result { try ledger.charging { try PNGCodec.read(contentsOf: "\(assetsDirectory)/\(variants[i].file)", scale: variants[i].scale) } }
            decoded.withLock { $0[i] = result }
        }
        var images: [String: Bitmap] = [:], files: [String: String] = [:]
        for (i, result) in decoded.withLock({ $0 }).enumerated() {
            images[names[i]] = try result!.get()
            files[names[i]] = variants[i].file
        }
        self.images = images
        imageFiles = files
    }

    static func variant(of name: String, scale: Double, in directory: String) -> (file: String, scale: Double) {
        ImageAsset.variant(of: name, scale: scale, in: directory)
    }

    // MARK: Timeline

    /// The timeline screen: a navigation bar and a table of note cells.
    public func makeTimeline() throws -> View {
        let screen = View(frame: Rect(origin: .zero, size: VesperScene.pointSize), name: "timeline")
        screen.backgroundColor = VesperScene.background
        let table = ScrollView(frame: Rect(x: 0, y: 64, width: 375, height: 603), name: "table")
        var y = 0.0
        for (i, note) in VesperScene.notes.enumerated() {
            let cell = try makeCell(note, index: i, top: y)
            try table.addSubview(cell)
            y += cell.bounds.height
        }
        table.contentSize = Size(width: 375, height: y)
        try screen.addSubview(table)
        try screen.addSubview(try makeNavigationBar(name: "navigationBar", title: "Timeline", back: nil))
        return screen
    }

    private func makeCell(_ note: Note, index: Int, top: Double) throws -> View {
        let cell = View(frame: Rect(x: 0, y: top, width: 375, height: 0), name: "note \(index)")
        cell.backgroundColor = VesperScene.background
        let textWidth: Double = 375 - 32 - (note.image == nil ? 0 : 76)
        let title = Label(text: note.title, style: TextStyle(font: VesperScene.cellTitleFont, color: VesperScene.ink),
                          frame: Rect(x: 16, y: 14, width: textWidth, height: 0), name: "note \(index) title")
        title.frame.size.height = try title.sizeThatFits(Size(width: textWidth, height: .infinity)).height
        let body = Label(text: note.body, style: TextStyle(font: VesperScene.cellBodyFont, color: VesperScene.secondary, numberOfLines: 2, lineSpacing: 2),
                         frame: Rect(x: 16, y: title.frame.maxY + 4, width: textWidth, height: 0), name: "note \(index) body")
        body.frame.size.height = try body.sizeThatFits(Size(width: textWidth, height: .infinity)).height
        var height = body.frame.maxY + 14
        try cell.addSubview(title)
        try cell.addSubview(body)
        if let name = note.image, let image = images[name] {
            let thumb = ImageView(image: image, frame: Rect(x: 375 - 16 - 64, y: 14, width: 64, height: 64),
                                  contentMode: .scaleAspectFill, name: "note \(index) thumbnail")
            thumb.clipsToBounds = true
            thumb.cornerRadius = 4
            try cell.addSubview(thumb)
            height = max(height, thumb.frame.maxY + 14)
        }
        cell.frame.size.height = height
        let separator = View(frame: Rect(x: 16, y: height - 0.5, width: 359, height: 0.5), name: "note \(index) separator")
        separator.backgroundColor = VesperScene.hairline
        try cell.addSubview(separator)
        return cell
    }

    // MARK: Detail

    /// The detail screen of note `index`: a navigation bar with a back button, the image, title and body.
    public func makeDetail(note index: Int = VesperScene.selectedNote) throws -> View {
        let note = VesperScene.notes[index]
        let screen = View(frame: Rect(origin: .zero, size: VesperScene.pointSize), name: "detail")
        screen.backgroundColor = VesperScene.background
        let content = ScrollView(frame: Rect(x: 0, y: 64, width: 375, height: 603), name: "detail content")
        var y = 16.0
        if let name = note.image, let image = images[name] {
            let imageView = ImageView(image: image, frame: Rect(x: 16, y: y, width: 343, height: 257),
                                      contentMode: .scaleAspectFill, name: "detail image")
            imageView.clipsToBounds = true
            imageView.cornerRadius = 4
            try content.addSubview(imageView)
            y = imageView.frame.maxY + 16
        }
        let title = Label(text: note.title, style: TextStyle(font: VesperScene.detailTitleFont, color: VesperScene.ink, numberOfLines: 0),
                          frame: Rect(x: 16, y: y, width: 343, height: 0), name: "detail title")
        title.frame.size.height = try title.sizeThatFits(Size(width: 343, height: .infinity)).height
        let body = Label(text: note.body, style: TextStyle(font: VesperScene.detailBodyFont, color: VesperScene.ink, numberOfLines: 0, lineSpacing: 4),
                         frame: Rect(x: 16, y: title.frame.maxY + 10, width: 343, height: 0), name: "detail body")
        body.frame.size.height = try body.sizeThatFits(Size(width: 343, height: .infinity)).height
        try content.addSubview(title)
        try content.addSubview(body)
        content.contentSize = Size(width: 375, height: body.frame.maxY + 16)
        try screen.addSubview(content)
        try screen.addSubview(try makeNavigationBar(name: "detail navigationBar", title: nil, back: "Timeline"))
        return screen
    }

    // MARK: Picture

    /// The full-screen picture of note `index`: its image aspect-fit on black.
    public func makePicture(note index: Int = VesperScene.selectedNote) throws -> View {
        let screen = View(frame: Rect(origin: .zero, size: VesperScene.pointSize), name: "picture")
        screen.backgroundColor = .black
        let image = VesperScene.notes[index].image.flatMap { images[$0] }
        let picture = ImageView(image: image, frame: screen.bounds, contentMode: .scaleAspectFit, name: "picture image")
        try screen.addSubview(picture)
        return screen
    }

    // MARK: Navigation bar

    private func makeNavigationBar(name: String, title: String?, back: String?) throws -> View {
        let bar = View(frame: Rect(x: 0, y: 0, width: 375, height: 64), name: name)
        bar.backgroundColor = VesperScene.barColor
        let line = View(frame: Rect(x: 0, y: 63.5, width: 375, height: 0.5))
        line.backgroundColor = VesperScene.hairline
        try bar.addSubview(line)
        if let title {
            let label = Label(text: title, style: TextStyle(font: VesperScene.barTitleFont, color: VesperScene.ink, alignment: .center),
                              frame: Rect(x: 60, y: 20, width: 255, height: 44), name: "\(name) title")
            try bar.addSubview(label)
            // A compose button: a plus drawn with two bars.
            for (w, h) in [(18.0, 2.0), (2.0, 18.0)] {
                let bar2 = View(frame: Rect(x: 375 - 16 - 9 - w / 2, y: 42 - h / 2, width: w, height: h))
                bar2.backgroundColor = VesperScene.accent
                try bar.addSubview(bar2)
            }
        }
        if let back {
            let chevron = View(frame: Rect(x: 14, y: 36, width: 12, height: 12), name: "\(name) chevron")
            chevron.borderWidth = 2.5
            chevron.borderColor = VesperScene.accent
            chevron.transform = Transform2D(rotationAngle: .pi / 4)
            // Only the left and bottom strokes of a rotated square show: a mask hides the rest.
            let mask = View(frame: Rect(x: 20, y: 28, width: 16, height: 28))
            mask.backgroundColor = VesperScene.barColor
            let label = Label(text: back, style: TextStyle(font: VesperScene.barBackFont, color: VesperScene.accent),
                              frame: Rect(x: 30, y: 20, width: 120, height: 44), name: "\(name) back")
            try bar.addSubview(chevron)
            try bar.addSubview(mask)
            try bar.addSubview(label)
        }
        return bar
    }
}
