import RasterCore
import XCTest
import SnapshotView

/// A display list skips what a later opaque rectangle covers (issue 29: the reference scene filled its
/// whole background and faded rows under the growing highlight): the same pixels as drawing every
/// operation in order, on any painter state.
final class DisplayListOcclusionTests: XCTestCase {
    /// SplitMix64, so every failure names a reproducible seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A coordinate on a grid of quarter and third points, so that edges fall on whole pixels, halves and
    /// odd fractions alike at @1x, @2x and @3x.
    static func coordinate(_ g: inout Generator, _ range: ClosedRange<Double>) -> Double {
        let steps = [0.25, 1.0 / 3, 0.5, 1, 0.1]
        let step = steps[Int.random(in: 0..<steps.count, using: &g)]
        return (Double.random(in: range, using: &g) / step).rounded() * step
    }

    static func rect(_ g: inout Generator) -> Rect {
        let x = coordinate(&g, -2...12), y = coordinate(&g, -2...10)
        return Rect(x: x, y: y, width: coordinate(&g, 0...14), height: coordinate(&g, 0...12))
    }

    static func colour(_ g: inout Generator) -> Color {
        // Opaque half of the time: those make the covers.
        let alpha = Bool.random(using: &g) ? 1 : [0, 0.3, 0.5, 0.999][Int.random(in: 0..<4, using: &g)]
        return Color(red: .random(in: 0...1, using: &g), green: .random(in: 0...1, using: &g), blue: .random(in: 0...1, using: &g), alpha: alpha)
    }

    static let image: Bitmap = {
        var b = try! Bitmap(width: 6, height: 5, scale: 2)
        b.draw { p in
            p.fill(Rect(x: 0, y: 0, width: 3, height: 2.5), color: Color(red: 0.9, green: 0.3, blue: 0.1))
            p.fill(Rect(x: 1, y: 1, width: 1.5, height: 1), color: Color(red: 0.1, green: 0.3, blue: 0.9, alpha: 0.6))
        }
        return b
    }()

    static func operation(_ g: inout Generator, depth: Int) -> DrawingOperation {
        let kinds = depth >= 3 ? 5 : 11
        switch Int.random(in: 0..<kinds, using: &g) {
        case 0, 1: return .rect(rect(&g), colour(&g))
        case 2: return .roundedRect(rect(&g), CornerRadii(all: coordinate(&g, 0...3)), colour(&g))
        case 3: return .image(image, rect(&g))
        case 4:
            var path = Path()
            path.move(to: Point(x: coordinate(&g, 0...12), y: coordinate(&g, 0...10)))
            path.addLine(to: Point(x: coordinate(&g, 0...12), y: coordinate(&g, 0...10)))
            path.addLine(to: Point(x: coordinate(&g, 0...12), y: coordinate(&g, 0...10)))
            return .path(path, colour(&g))
        case 5: return .clippedToRect(rect(&g), list(&g, depth: depth + 1))
        case 6: return .clippedToPath(Path(ellipseIn: rect(&g)), list(&g, depth: depth + 1))
        case 7:
            let transforms = [Transform2D(translationX: coordinate(&g, -3...3), y: coordinate(&g, -3...3)),
                              Transform2D(scaleX: 0.5, y: 1.5), Transform2D(rotationAngle: 0.3),
                              Transform2D(rotationAngle: .pi / 2), Transform2D(scaleX: 1, y: -1)]
            return .transformed(transforms[Int.random(in: 0..<transforms.count, using: &g)], list(&g, depth: depth + 1))
        case 8: return .faded([0, 0.4, 1, 1.5][Int.random(in: 0..<4, using: &g)], list(&g, depth: depth + 1))
        case 9: return .layer(list(&g, depth: depth + 1))
        default: return .imageOnce(image, Transform2D(translationX: coordinate(&g, 0...8), y: coordinate(&g, 0...6)))
        }
    }

    static func list(_ g: inout Generator, depth: Int) -> [DrawingOperation] {
        (0..<Int.random(in: 1...5, using: &g)).map { _ in operation(&g, depth: depth) }
    }

    /// The painter states a list may be drawn in: plain, translucent, through a mask, inside a layer,
    /// clipped to whole pixels, in copy mode.
    static let setups: [(String, @Sendable (Painter) -> Void)] = [
        ("plain", { _ in }),
        ("alpha 0.6", { $0.alpha = 0.6 }),
        ("round clip", { $0.clip(to: Path(ellipseIn: Rect(x: 1, y: 0.5, width: 9, height: 8))) }),
        ("layer", { $0.beginLayer() }),
        ("pixel clip", { $0.clip(toPixels: PixelRect(x: 3, y: 2, width: 14, height: 9)) }),
        ("copy", { $0.blendMode = .copy }),
    ]

    /// `operations` drawn on a bitmap of garbage one by one, and again by `pass` (which returns a count
    /// for the test).
    func compare(_ operations: [DrawingOperation], scale: Double, setup: (Painter) -> Void,
                 _ pass: (Painter) -> Int) throws -> (plain: Bitmap, drawn: Bitmap, count: Int) {
        let width = Int((12 * scale).rounded(.up)), height = Int((10 * scale).rounded(.up))
        var plain = try Bitmap(width: width, height: height, scale: scale, fill: PremultipliedRGBA8(r: 40, g: 90, b: 20, a: 200))
        var drawn = plain
        plain.draw { p in
            setup(p)
            for operation in operations { operation.draw(in: p) }
        }
        var count = 0
        drawn.draw { p in
            setup(p)
            count = pass(p)
        }
        return (plain, drawn, count)
    }

    /// Through the occlusion pass alone: how many operations it skipped or cut.
    func draw(_ operations: [DrawingOperation], scale: Double, setup: (Painter) -> Void) throws -> (plain: Bitmap, occluded: Bitmap, skipped: Int) {
        let r = try compare(operations, scale: scale, setup: setup) { DrawingOperation.drawList(operations, in: $0, context: OcclusionContext($0), hiddenBy: []) }
        return (r.plain, r.drawn, r.count)
    }

    func testRandomListsGiveTheSamePixelsAsDrawingEveryOperation() throws {
        var skipped = 0
        for seed in 0..<400 as Range<UInt64> {
            var g = Generator(state: seed)
            let operations = Self.list(&g, depth: 0) + Self.list(&g, depth: 0)
            let scale = [1.0, 2, 3][Int(seed % 3)]
            let (name, setup) = Self.setups[Int(seed / 3) % Self.setups.count]
            let result = try draw(operations, scale: scale, setup: setup)
            skipped += result.skipped
            XCTAssertEqual(result.occluded, result.plain, "seed \(seed), @\(scale)x, \(name)")
        }
        // The lists are random, but a good share of them hide something: the pass is exercised.
        XCTAssertGreaterThan(skipped, 100)
    }

    /// Four rows of the reference scene's shape, 2 pt apart from y = 2: a separator and a thumbnail
    /// through a rounded clip.
    static let rows: [DrawingOperation] = (0..<4).flatMap { row -> [DrawingOperation] in
        let y = 2 + 2.0 * Double(row)
        return [.rect(Rect(x: 1, y: y + 1.75, width: 10, height: 0.25), Color(white: 0.7)),
                .clippedToPath(Path(roundedRect: Rect(x: 1, y: y + 0.25, width: 1.5, height: 1.5), cornerRadii: CornerRadii(all: 0.4)),
                               [.image(image, Rect(x: 1, y: y + 0.25, width: 1.5, height: 1.5))])]
    }

    func testAnOpaquePanelHidesTheBackgroundAndTheRowsUnderItWithTheSamePixels() throws {
        // The reference scene's shape: a background, rows fading in a clipped table, then a highlight
        // over part of the table at fractions of a pixel, with a row's content on it and a translucent
        // smokescreen over everything.
        let rows = Self.rows
        let highlight = Rect(x: 0, y: 3.3, width: 12, height: 4.45)
        let operations: [DrawingOperation] = [
            .rect(Rect(x: 0, y: 0, width: 12, height: 10), .white),
            .rect(Rect(x: 0, y: 0, width: 12, height: 2), Color(red: 0, green: 0.48, blue: 1)),
            .clippedToRect(Rect(x: 0, y: 2, width: 12, height: 8), [
                .faded(0.6, rows),
                .rect(highlight, Color(white: 0.82)),
                .rect(Rect(x: 1, y: highlight.maxY - 0.25, width: 10, height: 0.25), Color(white: 0.7)),
            ]),
            .rect(Rect(x: 0, y: 0, width: 12, height: 10), Color(white: 0, alpha: 0.3)),
        ]
        for scale in [1.0, 2, 3] {
            let result = try draw(operations, scale: scale, setup: { _ in })
            XCTAssertEqual(result.occluded, result.plain, "@\(scale)x")
            // The background (in pieces around the highlight and under the bar), and the row wholly under
            // the highlight (its separator and thumbnail) at least.
            XCTAssertGreaterThanOrEqual(result.skipped, 3, "@\(scale)x")
        }
    }

    func testNothingIsSkippedUnderACoverThatIsNotOpaque() throws {
        let under: [DrawingOperation] = [.rect(Rect(x: 0, y: 0, width: 12, height: 10), .white),
                                         .rect(Rect(x: 2, y: 2, width: 3, height: 3), Color(red: 1, green: 0, blue: 0, alpha: 0.5))]
        let covers: [DrawingOperation] = [
            .rect(Rect(x: 0, y: 0, width: 12, height: 10), Color(white: 0.5, alpha: 0.99)),
            .faded(0.99, [.rect(Rect(x: 0, y: 0, width: 12, height: 10), .black)]),
            .clippedToRect(Rect(x: 0.25, y: 0, width: 11, height: 10), [.rect(Rect(x: 0, y: 0, width: 12, height: 10), .black)]),
            .clippedToPath(Path(rect: Rect(x: 0, y: 0, width: 12, height: 10)), [.rect(Rect(x: 0, y: 0, width: 12, height: 10), .black)]),
            .transformed(Transform2D(rotationAngle: 0.1), [.rect(Rect(x: -5, y: -5, width: 30, height: 30), .black)]),
            .layer([.rect(Rect(x: 0, y: 0, width: 12, height: 10), .black)]),
        ]
        for cover in covers {
            let result = try draw(under + [cover], scale: 2, setup: { _ in })
            XCTAssertEqual(result.occluded, result.plain, "\(cover)")
            XCTAssertEqual(result.skipped, 0, "\(cover)")
        }
        // A painter that does not draw opaque sources opaquely makes no cover either.
        for (name, setup) in Self.setups where name != "plain" && name != "pixel clip" && name != "layer" {
            let result = try draw(under + [.rect(Rect(x: 0, y: 0, width: 12, height: 10), .black)], scale: 2, setup: setup)
            XCTAssertEqual(result.occluded, result.plain, name)
            XCTAssertEqual(result.skipped, 0, name)
        }
    }

    func testACoverOnWholePixelsInsideGroupsHidesWhatComesBefore() throws {
        let under: [DrawingOperation] = [.rect(Rect(x: 0, y: 0, width: 12, height: 10), .white),
                                         .image(Self.image, Rect(x: 4, y: 4, width: 2, height: 2))]
        let covers: [DrawingOperation] = [
            .clippedToRect(Rect(x: 3, y: 3, width: 5, height: 5), [.rect(Rect(x: 0, y: 0, width: 12, height: 10), .black)]),
            .transformed(Transform2D(translationX: 1, y: 1), [.rect(Rect(x: 2, y: 2, width: 6, height: 6), .black)]),
            .faded(1, [.rect(Rect(x: 3, y: 3, width: 5, height: 5), .black)]),
            .transformed(Transform2D(scaleX: -1, y: 1), [.rect(Rect(x: -8, y: 3, width: 5, height: 5), .black)]),
        ]
        for cover in covers {
            for scale in [1.0, 2, 3] {
                let result = try draw(under + [cover], scale: scale, setup: { _ in })
                XCTAssertEqual(result.occluded, result.plain, "\(cover) @\(scale)x")
                // The image is skipped and the background drawn around the cover.
                XCTAssertEqual(result.skipped, 2, "\(cover) @\(scale)x")
            }
        }
    }

    // MARK: The smokescreen folded into the fills under it

    /// A translucent rectangle over the whole canvas (or most of it, at fractions of a pixel), as a list's
    /// last operation.
    static func smokescreen(_ g: inout Generator) -> DrawingOperation {
        let alpha = [0.3, 0.5, 0.01, 0.99][Int.random(in: 0..<4, using: &g)]
        let colour = Color(red: .random(in: 0...1, using: &g), green: 0.2, blue: 0.1, alpha: alpha)
        let rect = Bool.random(using: &g) ? Rect(x: 0, y: 0, width: 12, height: 10) : Rect(x: 0.3, y: -1, width: 11.5, height: 10.7)
        return .rect(rect, colour)
    }

    /// Through ``DrawingOperation/draw(_:in:)``: how many pixels the smokescreen fold stores at once.
    func drawPublic(_ operations: [DrawingOperation], scale: Double, setup: (Painter) -> Void) throws -> (plain: Bitmap, drawn: Bitmap, folded: Int) {
        let r = try compare(operations, scale: scale, setup: setup) { p in
            let folded = SmokescreenFold(operations, in: p, context: OcclusionContext(p))?.foldedArea ?? 0
            DrawingOperation.draw(operations, in: p)
            return folded
        }
        return (r.plain, r.drawn, r.count)
    }

    func testRandomListsUnderASmokescreenGiveTheSamePixelsAsDrawingEveryOperation() throws {
        var foldedLists = 0
        for seed in 1000..<1400 as Range<UInt64> {
            var g = Generator(state: seed)
            let operations = Self.list(&g, depth: 0) + Self.list(&g, depth: 0) + [Self.smokescreen(&g)]
            let scale = [1.0, 2, 3][Int(seed % 3)]
            let (name, setup) = Self.setups[Int(seed / 3) % Self.setups.count]
            let result = try drawPublic(operations, scale: scale, setup: setup)
            if result.folded > 0 { foldedLists += 1 }
            XCTAssertEqual(result.drawn, result.plain, "seed \(seed), @\(scale)x, \(name)")
        }
        XCTAssertGreaterThan(foldedLists, 40, "the fold is exercised")
    }

    func testTheSmokescreenFoldsIntoTheBackgroundAndThePanelOfAReferenceLikeList() throws {
        let rows = Self.rows
        let operations: [DrawingOperation] = [
            .rect(Rect(x: 0, y: 0, width: 12, height: 10), .white),
            .rect(Rect(x: 0, y: 0, width: 12, height: 2), Color(red: 0, green: 0.48, blue: 1)),
            .clippedToRect(Rect(x: 0, y: 2, width: 12, height: 8), [
                .faded(0.6, rows),
                .rect(Rect(x: 0, y: 3.3, width: 12, height: 4.45), Color(white: 0.82)),
            ]),
            .rect(Rect(x: 0, y: 0, width: 12, height: 10), Color(white: 0, alpha: 0.3)),
        ]
        for scale in [1.0, 2, 3] {
            let result = try drawPublic(operations, scale: scale, setup: { _ in })
            XCTAssertEqual(result.drawn, result.plain, "@\(scale)x")
            // The bar, the background between the rows and most of the panel: over half the canvas.
            XCTAssertGreaterThan(result.folded * 2, result.plain.width * result.plain.height, "@\(scale)x")
        }
        // Without a smokescreen last, or with an opaque or invisible one, there is nothing to fold.
        let painter = { (operations: [DrawingOperation]) -> SmokescreenFold? in
            var bitmap = try! Bitmap(width: 24, height: 20, scale: 2)
            var fold: SmokescreenFold?
            bitmap.draw { fold = SmokescreenFold(operations, in: $0, context: OcclusionContext($0)) }
            return fold
        }
        XCTAssertNil(painter(Array(operations.dropLast())))
        XCTAssertNil(painter(Array(operations.dropLast()) + [.rect(Rect(x: 0, y: 0, width: 12, height: 10), .black)]))
        XCTAssertNil(painter(Array(operations.dropLast()) + [.rect(Rect(x: 0, y: 0, width: 12, height: 10), .clear)]))
        XCTAssertNotNil(painter(operations))
    }
}
