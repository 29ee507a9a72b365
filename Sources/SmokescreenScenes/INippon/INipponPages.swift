import Choreography
import Containers
import Foundation
import Motion
import PNGIO
import RasterCore
import SnapshotView
import Typesetting

/// One of iNippon's ten pages: a title and a paragraph in English and Japanese over a background.
struct INipponPageContent: Sendable {
    let english: String, japanese: String
    let textEnglish: String, textJapanese: String

    static let all: [INipponPageContent] = [
        INipponPageContent(english: "Mount Fuji", japanese: "富士山", textEnglish: "At 3,776 m, Japan's highest mountain, a volcano that last erupted in 1707.",
                           textJapanese: "標高3776メートルの日本一高い山。最後の噴火は1707年。"),
        INipponPageContent(english: "Torii", japanese: "鳥居", textEnglish: "A gate that marks the entrance to a shrine; Itsukushima's stands in the sea.",
                           textJapanese: "神社の入口を示す門。厳島神社の鳥居は海の中に立つ。"),
        INipponPageContent(english: "Cherry blossoms", japanese: "桜", textEnglish: "In spring people picnic under the blossoms: hanami, flower viewing.",
                           textJapanese: "春には花の下で花見をする。"),
        INipponPageContent(english: "The sea", japanese: "海", textEnglish: "No place in Japan is more than about 150 km from the sea.",
                           textJapanese: "日本のどこからでも海まではおよそ150キロ以内。"),
        INipponPageContent(english: "Pagoda", japanese: "五重塔", textEnglish: "Five-storied pagodas have stood through centuries of earthquakes.",
                           textJapanese: "五重塔は何世紀もの地震に耐えてきた。"),
        INipponPageContent(english: "Moon viewing", japanese: "月見", textEnglish: "In autumn the full moon is admired with dumplings and pampas grass.",
                           textJapanese: "秋には団子とすすきを供えて満月を眺める。"),
        INipponPageContent(english: "Sunrise", japanese: "日の出", textEnglish: "Nihon, the country's name, means the origin of the sun.",
                           textJapanese: "「日本」という国名は日の本、太陽の昇るところを意味する。"),
        INipponPageContent(english: "Autumn leaves", japanese: "紅葉", textEnglish: "Maple leaves turn red from the north southwards in October and November.",
                           textJapanese: "十月と十一月、紅葉は北から南へと色づいていく。"),
        INipponPageContent(english: "Snow country", japanese: "雪国", textEnglish: "Along the Sea of Japan, winter snow can be several metres deep.",
                           textJapanese: "日本海側では冬の雪が数メートル積もることもある。"),
        INipponPageContent(english: "Rice terraces", japanese: "棚田", textEnglish: "Terraced paddies climb the hillsides where flat land is scarce.",
                           textJapanese: "平地の少ない山の斜面に棚田が広がる。"),
    ]
}

/// A page: the background image filling it, a paper panel at the bottom with the title and the
/// paragraph in both languages.
package final class INipponPageController: ViewController {
    let index: Int
    let content: INipponPageContent
    let background: Bitmap

    init(index: Int, background: Bitmap) {
        self.index = index
        content = INipponPageContent.all[index]
        self.background = background
        super.init()
    }

    package override func loadView() -> View {
        let size = INipponPagesTransition.pageSize
        let view = View(frame: Rect(origin: .zero, size: size), name: "page-\(index)")
        view.backgroundColor = .white
        let image = ImageView(image: background, frame: Rect(origin: .zero, size: size), name: "background")
        let panel = View(frame: Rect(x: 12, y: size.height - 132, width: size.width - 24, height: 120), name: "panel")
        panel.backgroundColor = Color(red8: 0xFB, green8: 0xF7, blue8: 0xEE, alpha: 0.92)
        panel.cornerRadius = 8
        let ink = Color(red8: 0x2B, green8: 0x1D, blue8: 0x12)
        let title = Label(text: "\(content.japanese)  \(content.english)", style: TextStyle(font: .boldSystem(size: 17), color: ink),
                          frame: Rect(x: 12, y: 8, width: size.width - 48, height: 24), name: "title")
        let english = Label(text: content.textEnglish, style: TextStyle(font: .system(size: 13), color: ink, numberOfLines: 2, lineBreakMode: .byWordWrapping),
                            frame: Rect(x: 12, y: 34, width: size.width - 48, height: 38), name: "english")
        let japanese = Label(text: content.textJapanese, style: TextStyle(font: .system(size: 13), color: ink.withAlpha(0.8), numberOfLines: 2, lineBreakMode: .byCharWrapping),
                             frame: Rect(x: 12, y: 74, width: size.width - 48, height: 38), name: "japanese")
        try? view.addSubview(image)
        try? view.addSubview(panel)
        for label in [title, english, japanese] { try? panel.addSubview(label) }
        return view
    }
}

/// How the pages' controllers are kept (seed 002).
public enum PageLoading: String, Sendable, CaseIterable, Codable {
    /// Every page made and its background decoded at launch.
    case allLoaded = "all-loaded"
    /// The seed's fix: the previous, current and next page; after a turn the new neighbour loads, and
    /// turning is off until it has.
    case window = "three-page-window"
    /// Xcode's page-based template: a page is made when a turn asks for it, during the turn.
    case onDemand = "on-demand"
}

/// The pages' data source and delegate, loading pages by a ``PageLoading`` strategy: each load decodes
/// the background at the render's scale and draws the page once, and is timed.
package final class PageStore: PageViewControllerDataSource, PageViewControllerDelegate {
    let strategy: PageLoading
    let scale: Double
    let assetsDirectory: String
    let engine: AnimationEngine?
    package weak var pageViewController: PageViewController?
    /// The loaded pages, by index.
    package private(set) var loaded: [Int: INipponPageController] = [:]
    /// The page on screen.
    package private(set) var current: Int
    /// Seconds each load took (wall clock), in order.
    package private(set) var loadTimes: [Double] = []
    /// The files the pages come from (relative to the assets folder), by index.
    private(set) var files: [Int: String] = [:]
    /// Errors from loads run after turns (the scene reports them).
    var onError: ((any Error) -> Void)?
    /// Whether loading keeps turning off for as long as it took (the seed's disabled gestures); true.
    var disablesTurningWhileLoading = true

    package static let count = INipponPageContent.all.count

    package init(strategy: PageLoading, scale: Double, assetsDirectory: String, engine: AnimationEngine?, start: Int = 0) throws {
        self.strategy = strategy
        self.scale = scale
        self.assetsDirectory = assetsDirectory
        self.engine = engine
        current = start
        switch strategy {
        case .allLoaded: for i in 0..<Self.count { try load(i) }
        case .window: for i in window(around: start) { try load(i) }
        case .onDemand: try load(start)
        }
    }

    /// The pages the window holds around page `index`: the previous, it and the next (two at an end).
    func window(around index: Int) -> [Int] { [index - 1, index, index + 1].filter { (0..<Self.count).contains($0) } }

    /// Decodes page `index`'s background (the variant for the scale) and draws the page once; returns
    /// the seconds it took.
    @discardableResult
    func load(_ index: Int) throws -> Double {
        if loaded[index] != nil { return 0 }
        let (file, variantScale) = ImageAsset.variant(of: "inippon/pages/page\(index)", scale: scale, in: assetsDirectory)
        var page: INipponPageController?
        let seconds = try ReferenceBenchmark.seconds {
            let background = try PNGCodec.read(contentsOf: "\(assetsDirectory)/\(file)", scale: variantScale)
            page = INipponPageController(index: index, background: background)
            // The first draw: the page's backing store, as a device draws a view before showing it.
            _ = try ViewRenderer.render(page!.view, scale: scale)
        }
        loaded[index] = page
        files[index] = file
        loadTimes.append(seconds)
        return seconds
    }

    package func pageViewController(_ pageViewController: PageViewController, viewControllerBefore viewController: ViewController) -> ViewController? {
        page(((viewController as? INipponPageController)?.index ?? 0) - 1)
    }
    package func pageViewController(_ pageViewController: PageViewController, viewControllerAfter viewController: ViewController) -> ViewController? {
        page(((viewController as? INipponPageController)?.index ?? 0) + 1)
    }

    /// Page `index` for a turn: loaded already, or (on demand) loaded now.
    private func page(_ index: Int) -> INipponPageController? {
        guard (0..<Self.count).contains(index) else { return nil }
        if strategy == .onDemand, loaded[index] == nil {
            do { try load(index) } catch { onError?(error); return nil }
        }
        return loaded[index]
    }

    package func pageViewController(_ pageViewController: PageViewController, didFinishAnimating finished: Bool,
                            previousViewControllers: [ViewController], transitionCompleted completed: Bool) {
        guard completed, let shown = pageViewController.viewControllers.first as? INipponPageController else { return }
        pageMoved(to: shown.index)
    }

    /// After a turn to `index`: the window lets go of the page that left it, then loads the one that
    /// came in, with turning off for as long as that took; on demand, pages not shown are let go.
    func pageMoved(to index: Int) {
        current = index
        switch strategy {
        case .allLoaded: return
        case .onDemand:
            loaded = loaded.filter { $0.key == index }
        case .window:
            let keep = Set(window(around: index))
            loaded = loaded.filter { keep.contains($0.key) }
            var seconds = 0.0
            do {
                for i in keep.sorted() where loaded[i] == nil { seconds += try load(i) }
            } catch { onError?(error) }
            guard seconds > 0, disablesTurningWhileLoading, let engine, let pvc = pageViewController else { return }
            for recognizer in pvc.gestureRecognizers { recognizer.isEnabled = false }
            engine.perform(afterDelay: seconds) { [weak pvc] in
                for recognizer in pvc?.gestureRecognizers ?? [] { recognizer.isEnabled = true }
            }
        }
    }
}
