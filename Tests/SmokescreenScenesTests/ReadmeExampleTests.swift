import FrameStore
import Motion
import PNGIO
import TransitionCompositor
import RasterCore
import SmokescreenScenes
import SnapshotView
import XCTest

/// The drawing example of docs/reference.md, verbatim but for paths, so that the guide stays true.
final class ReadmeExampleTests: XCTestCase {
    func testDrawingExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("readme-example-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: output) }

        let thumbnail = try PNGCodec.read(contentsOf: root.appendingPathComponent("assets/reference/thumb_200.png").path)
        var frame = try Bitmap(pointSize: Size(width: 375, height: 667), scale: 2)   // 750x1334 pixels
        frame.draw { p in                                       // user space is in points
            p.fill(Rect(x: 0, y: 0, width: 375, height: 667), color: .white)
            p.fill(Rect(x: 0, y: 0, width: 375, height: 64), color: Color(hex: 0x007AFF))
            p.withSavedState {
                p.clip(to: Path(roundedRect: Rect(x: 16, y: 80, width: 44, height: 44), cornerRadius: 8))
                p.draw(thumbnail, in: Rect(x: 16, y: 80, width: 44, height: 44))
            }
            p.withLayer(opacity: 0.5) {                         // group opacity: composited once
                p.fill(roundedRect: Rect(x: 80, y: 80, width: 100, height: 44), cornerRadii: CornerRadii(all: 6), color: .black)
                p.strokeBorder(of: Rect(x: 80, y: 80, width: 100, height: 44), width: 1, cornerRadii: CornerRadii(all: 6), color: .white)
            }
        }
        try PNGCodec.write(frame, to: output)                   // RGB when opaque, RGBA otherwise

        let (back, header) = try PNGCodec.readWithHeader(contentsOf: output, scale: 2)
        XCTAssertEqual(header.colorType, .rgb)
        XCTAssertEqual(back, frame)
        XCTAssertEqual(frame[300, 60], Color(hex: 0x007AFF).premultiplied)
        XCTAssertEqual(frame[200, 200], PremultipliedRGBA8(r: 127, g: 127, b: 127, a: 255), "black at opacity 128 over white: 255·127/255")
        XCTAssertEqual(frame[161, 161], PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), "white border at 50% over white")
    }

    func testViewTreeExample() throws {
        let window = View(frame: Rect(x: 0, y: 0, width: 320, height: 200), name: "window")
        window.backgroundColor = .white
        let list = ScrollView(frame: Rect(x: 0, y: 44, width: 320, height: 156), name: "list")
        list.contentSize = Size(width: 320, height: 600)
        list.contentOffset = Point(x: 0, y: 30)                 // bounds.origin: the content scrolls up 30 pt
        let cell = View(frame: Rect(x: 0, y: 60, width: 320, height: 60), name: "cell")
        cell.backgroundColor = Color(hex: 0xF2F2F7)
        let thumb = ImageView(image: try Bitmap(width: 88, height: 88, scale: 2, fill: Color(hex: 0x007AFF).premultiplied),
                              frame: Rect(x: 16, y: 8, width: 44, height: 44), contentMode: .scaleAspectFill)
        thumb.cornerRadius = 8
        thumb.clipsToBounds = true
        try window.addSubview(list); try list.addSubview(cell); try cell.addSubview(thumb)

        let inWindow = try thumb.convert(thumb.bounds, to: nil)  // (16.0, 82.0, 44.0, 44.0)
        let frame = try ViewRenderer.render(window, scale: 2)    // 640x400 pixels
        let moving = try cell.snapshotView(scale: 2, clearBackground: true)   // the cell's content only

        XCTAssertEqual(inWindow.description, "(16.0, 82.0, 44.0, 44.0)")
        XCTAssertEqual(frame.width, 640)
        XCTAssertEqual(frame.height, 400)
        XCTAssertEqual(frame[40 * 2, 100 * 2], Color(hex: 0x007AFF).premultiplied)
        XCTAssertEqual(moving.image?[0, 0], .clear)
        XCTAssertEqual(moving.image?[40 * 2, 30 * 2], Color(hex: 0x007AFF).premultiplied)
        XCTAssertEqual(cell.backgroundColor, Color(hex: 0xF2F2F7))
    }

    func testAnimationExample() throws {
        let window = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "window")
        let card = View(frame: Rect(x: 0, y: 0, width: 20, height: 20), name: "card")
        card.backgroundColor = Color(hex: 0xFF3B30)
        try window.addSubview(card)

        let engine = AnimationEngine(fps: 60)                    // one per transition: time is virtual
        engine.animate(duration: 0.25, animations: { card.center = Point(x: 80, y: 10) }) { _ in
            // Runs at exactly t = 0.25; this block starts then, not at the next frame.
            engine.animate(duration: 0.3, options: [.curveEaseOut], animations: { card.alpha = 0 })
        }
        // The model holds the final values at once, as in UIKit.
        engine.advance(toFrame: 6)                               // t = 6/60 s, exactly
        let midway = try window.snapshot(scale: 2, presentation: engine)   // presentation values at t
        engine.runUntilIdle()
        let ended = engine.lastEndTime                           // 0.55 s

        XCTAssertEqual(card.center, Point(x: 80, y: 10))
        XCTAssertEqual(card.alpha, 0)
        XCTAssertEqual(ended, 0.55, accuracy: 1e-12)
        // At t = 0.1 the card has moved easeInEaseOut(0.4) of the way from x = 10 to 80.
        let x = 10 + 70 * TimingCurve.easeInEaseOut.progress(at: 0.4)
        XCTAssertEqual(midway[Int(x * 2), 20], Color(hex: 0xFF3B30).premultiplied)
        XCTAssertEqual(midway[Int((x - 11) * 2), 20], .clear)
    }

    struct Fade: Transition {
        var name: String { "fade" }
        var summary: String { "a card fades into another" }
        var pointSize: Size { Size(width: 100, height: 100) }

        func render(_ settings: RenderSettings) throws -> RenderedTransition {
            try TransitionDriver.render(name: name, settings: settings, durations: ["fade": 0.3], assets: []) { engine in
                let window = View(frame: Rect(origin: .zero, size: pointSize), name: "window")
                let a = View(frame: window.bounds, name: "a"), b = View(frame: window.bounds, name: "b")
                a.backgroundColor = .white
                b.backgroundColor = Color(hex: 0x007AFF)
                let context = try TransitionContext(container: window, fromView: a, toView: b, engine: engine, scale: settings.scale)
                let old = try context.placeSnapshot(of: a)   // at a's rect converted into the smokescreen
                try context.swapViews()                      // b replaces a, under the smokescreen
                try context.animateBlock("fade", timing: BlockTiming(duration: 0.3), animations: { old.alpha = 0 })
                return context                               // the smokescreen goes when the block completes
            }
        }
    }

    func testWritingATransitionExample() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("readme-fade-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let rendered = try Fade().render(RenderSettings(scale: 2, fps: 30, assetsDirectory: "assets"))
        try FrameWriter(directory: out).write(rendered.sequence)

        XCTAssertEqual(rendered.sequence.count, 10, "0…9/30 s, the last at 0.3")
        XCTAssertEqual(rendered.sequence.times.last, 0.3)
        var frame = try rendered.sequence.makeCanvas()
        rendered.sequence.draw(frame: 0, into: &frame)
        XCTAssertEqual(frame[10, 10], .white)
        rendered.sequence.draw(frame: 9, into: &frame)
        XCTAssertEqual(frame[10, 10], Color(hex: 0x007AFF).premultiplied)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/frame_0009.png"))
    }

    func testMemoryExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let settings = RenderSettings(scale: 2, fps: 10, assetsDirectory: root.appendingPathComponent("assets").path)
        let (rendered, usage) = try MemoryLedger.measure { try VesperTransition(.timelineToDetail).render(settings) }
        print(rendered.bitmaps.count, usage.peakBytes, usage.liveBytes)   // bytes of bitmap storage
        XCTAssertGreaterThan(usage.peakBytes, 750 * 1334 * 4, "at least one full-screen snapshot at @2x")
        XCTAssertGreaterThan(rendered.bitmaps.count, 3)
    }
}
