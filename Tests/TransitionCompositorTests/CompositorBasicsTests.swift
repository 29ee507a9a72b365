import BoundedInput
import FrameStore
import Foundation
import Motion
import RasterCore
import SnapshotView
import XCTest
import TransitionCompositor

final class SmokescreenTests: XCTestCase {
    func testAddedOnFirstIncrementRemovedWhenTheCountReturnsToZero() throws {
        let container = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "container")
        let content = View(frame: container.bounds, name: "content")
        try container.addSubview(content)
        let smoke = Smokescreen(container: container)
        XCTAssertNil(smoke.superview)
        try smoke.incrementUseCount()
        XCTAssertTrue(smoke.superview === container)
        XCTAssertEqual(smoke.frame, container.bounds)
        try smoke.incrementUseCount()
        // A view added later goes below on the next increment.
        let late = View(name: "late")
        try container.addSubview(late)
        try smoke.incrementUseCount()
        XCTAssertTrue(container.subviews.last === smoke)
        XCTAssertEqual(smoke.useCount, 3)
        try smoke.addSubview(View(name: "snapshot"))
        try smoke.decrementUseCount(); try smoke.decrementUseCount()
        XCTAssertTrue(smoke.superview === container)
        try smoke.decrementUseCount()
        XCTAssertNil(smoke.superview)
        XCTAssertEqual(smoke.useCount, 0)
        XCTAssertTrue(smoke.subviews.isEmpty, "snapshots go with it")
    }

    func testADecrementBelowZeroIsAnError() throws {
        let container = View(frame: Rect(x: 0, y: 0, width: 4, height: 4))
        let smoke = Smokescreen(container: container, name: "vesper smokescreen")
        XCTAssertThrowsError(try smoke.decrementUseCount()) { error in
            XCTAssertEqual(error as? SmokescreenError, .useCountBelowZero(name: "vesper smokescreen"))
            XCTAssertTrue("\(error)".contains("already 0"))
        }
        try smoke.incrementUseCount()
        try smoke.decrementUseCount()
        XCTAssertThrowsError(try smoke.decrementUseCount())
        XCTAssertEqual(smoke.useCount, 0)
    }
}

final class FrameTimesTests: XCTestCase {
    func testFramesAreAtIOverFPSWithTheLastExactlyAtTheEnd() throws {
        let whole = try FrameTimes(endTime: 0.5, fps: 60)
        XCTAssertEqual(whole.count, 31)
        XCTAssertEqual(whole.times.first, 0)
        XCTAssertEqual(whole.times.last, 0.5)
        // Held frames come from the index: no 0.6500000000000001 in a manifest.
        XCTAssertEqual(FrameTimes.holdTimes(after: 0.55, fps: 10, count: 3), [0.65, 0.75, 0.85])
        XCTAssertEqual(try FrameTimes(endTime: 0.2, fps: 10, holdFrames: 1).times, [0, 0.1, 0.2, 0.3])
        XCTAssertEqual(whole.times[7], 7.0 / 60)

        let between = try FrameTimes(endTime: 0.655, fps: 60)
        XCTAssertEqual(between.count, 41, "0…39/60, then 0.655")
        XCTAssertEqual(between.times[39], 39.0 / 60)
        XCTAssertEqual(between.times.last, 0.655)

        let held = try FrameTimes(endTime: 0.1, fps: 10, holdFrames: 2)
        XCTAssertEqual(held.times, [0, 0.1, 0.2, 0.3], "held frames from the index: no 0.30000000000000004")
        XCTAssertEqual(try FrameTimes(endTime: 0, fps: 30).times, [0])
    }

    func testBadValuesAreRejected() {
        XCTAssertThrowsError(try FrameTimes(endTime: 1, fps: 0))
        XCTAssertThrowsError(try FrameTimes(endTime: 1, fps: .nan))
        XCTAssertThrowsError(try FrameTimes(endTime: -1, fps: 30))
        XCTAssertThrowsError(try FrameTimes(endTime: .infinity, fps: 30))
        XCTAssertThrowsError(try FrameTimes(endTime: 1e6, fps: 1000)) { error in
            XCTAssertTrue("\(error)".contains("limit"))
        }
    }

    func testSelectionsByRangeAndShard() {
        XCTAssertEqual(FrameSelection.parseRange("3..7"), 3...7)
        XCTAssertEqual(FrameSelection.parseRange("5.."), 5...Int.max)
        XCTAssertNil(FrameSelection.parseRange("7..3"))
        XCTAssertNil(FrameSelection.parseRange("x..3"))
        XCTAssertNil(FrameSelection.parseRange("-1..3"))
        XCTAssertTrue(FrameSelection.parseShard("2/3")! == (2, 3))
        XCTAssertNil(FrameSelection.parseShard("0/3"))
        XCTAssertNil(FrameSelection.parseShard("4/3"))
        XCTAssertNil(FrameSelection.parseShard("1/0"))
        // Shards are interleaved and together cover everything exactly once.
        let shards = (1...3).map { k in (0..<10).filter(FrameSelection(shard: (k, 3)).contains) }
        XCTAssertEqual(shards, [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]])
        XCTAssertEqual((0..<10).filter(FrameSelection(range: 2...4, shard: (1, 2)).contains), [2, 4])
        XCTAssertTrue(FrameSelection.all.coversAll(of: 5))
        XCTAssertFalse(FrameSelection(range: 0...3).coversAll(of: 5))
    }
}

final class BlockTimingsTests: XCTestCase {
    func plist(_ body: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(body)</dict></plist>
            """.utf8)
    }

    func testReadsDurationsDelaysAndCurves() throws {
        let data = plist("""
            <key>a</key><dict><key>duration</key><real>0.25</real></dict>
            <key>b</key><dict><key>duration</key><integer>1</integer><key>delay</key><real>0.1</real><key>curve</key><string>linear</string></dict>
            <key>c</key><dict><key>duration</key><real>0.5</real><key>curve</key><array><real>0.1</real><real>0.2</real><real>0.3</real><real>1.5</real></array></dict>
            <key>notes</key><string>ignored</string>
            """)
        let t = try BlockTimings.parse(data, path: "d.plist", required: ["a", "b", "c"])
        XCTAssertEqual(t["a"], BlockTiming(duration: 0.25))
        XCTAssertEqual(t["b"], BlockTiming(duration: 1, delay: 0.1, curve: .linear))
        XCTAssertEqual(t["c"]?.curve, TimingCurve(0.1, 0.2, 0.3, 1.5))
        XCTAssertEqual(t["b"]?.end, 1.1)
    }

    /// A curve may be a spring in either of UIKit's spellings: a damping ratio settling by the block's
    /// duration, or iOS 17's duration and bounce, which then sets the block's length.
    func testReadsSprings() throws {
        let data = plist("""
            <key>a</key><dict><key>duration</key><real>0.4</real><key>curve</key>
              <dict><key>spring</key><dict><key>dampingRatio</key><real>0.7</real><key>initialVelocity</key><real>2</real></dict></dict></dict>
            <key>b</key><dict><key>delay</key><real>0.1</real><key>curve</key>
              <dict><key>spring</key><dict><key>duration</key><real>0.5</real><key>bounce</key><real>0.2</real></dict></dict></dict>
            <key>c</key><dict><key>curve</key><dict><key>spring</key><dict><key>duration</key><integer>1</integer></dict></dict></dict>
            """)
        let t = try BlockTimings.parse(data, path: "d.plist", required: ["a", "b", "c"])
        XCTAssertEqual(t["a"], BlockTiming(duration: 0.4, dampingRatio: 0.7, initialVelocity: 2))
        XCTAssertEqual(t["a"]?.animationTiming, .spring(dampingRatio: 0.7, initialVelocity: 2))
        XCTAssertEqual(t["b"]?.spring, .bounce(duration: 0.5, bounce: 0.2, initialVelocity: 0))
        // The block lasts until the spring settles: its settling duration, past the perceptual 0.5 s.
        let settling = Spring(perceptualDuration: 0.5, bounce: 0.2).duration
        XCTAssertEqual(t["b"]?.duration, settling)
        XCTAssertEqual(t["b"]?.end, 0.1 + settling)
        XCTAssertGreaterThan(settling, 0.5)
        XCTAssertEqual(t["b"]?.animationTiming, .physicalSpring(Spring(perceptualDuration: 0.5, bounce: 0.2)))
        XCTAssertEqual(t["c"]?.spring, .bounce(duration: 1, bounce: 0, initialVelocity: 0))
    }

    func testBadSpringsNameTheKeyPath() {
        func spring(_ keys: String, duration: Bool = true) -> String {
            "<key>a</key><dict>" + (duration ? "<key>duration</key><real>1</real>" : "") + "<key>curve</key><dict><key>spring</key><dict>\(keys)</dict></dict></dict>"
        }
        assertError(spring("<key>dampingRatio</key><real>0</real>"), contains: "a.curve.spring.dampingRatio: must be in 0.01…100.0, got 0.0")
        assertError(spring("<key>dampingRatio</key><string>soft</string>"), contains: "a.curve.spring.dampingRatio: must be a number, got the string 'soft'")
        assertError(spring("<key>dampingRatio</key><real>0.5</real><key>bounce</key><real>0.2</real>"),
                    contains: "a.curve.spring: a spring has either dampingRatio")
        assertError(spring("<key>bounce</key><real>0.2</real>", duration: false), contains: "a.curve.spring: a spring needs dampingRatio")
        assertError(spring("<key>duration</key><real>0.5</real><key>bounce</key><real>1</real>", duration: false),
                    contains: "a.curve.spring.bounce: must be over -1.0 and under 1.0, got 1.0")
        assertError(spring("<key>duration</key><real>0</real>", duration: false), contains: "a.curve.spring.duration: a spring's duration must be over 0 s")
        assertError(spring("<key>duration</key><real>0.5</real>"), contains: "a.duration: the block moves on a spring with its own duration")
        assertError(spring("<key>dampingRatio</key><real>0.5</real>", duration: false), contains: "a.duration: missing")
        assertError(spring("<key>dampingRatoi</key><real>0.5</real>"), contains: "a.curve.spring.dampingRatoi: unknown key 'dampingRatoi' (a spring has dampingRatio, initialVelocity, duration and bounce); did you mean 'dampingRatio'?")
        assertError(spring("<key>duration</key><real>300</real><key>bounce</key><real>0.9</real>", duration: false),
                    contains: "a.curve.spring: this spring settles after the limit of 600.0 s")
        assertError("<key>a</key><dict><key>duration</key><real>1</real><key>curve</key><dict><key>sprung</key><dict/></dict></dict>",
                    contains: "a.curve.sprung: unknown key 'sprung'; a curve dictionary holds one key, spring")
    }

    func assertError(_ body: String, required: [String] = ["a"], contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try BlockTimings.parse(plist(body), path: "/x/durations.plist", required: required), file: file, line: line) { error in
            guard let e = error as? DocumentError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(e.exitStatus, 65, file: file, line: line)
            // file:line:column: key.path: reason
            XCTAssertTrue(e.description.hasPrefix("/x/durations.plist:"), e.description, file: file, line: line)
            XCTAssertNotNil(e.position, e.description, file: file, line: line)
            XCTAssertTrue(e.description.contains(text), e.description, file: file, line: line)
        }
    }

    func testBadValuesNameTheFileAndKeyPath() {
        assertError("", contains: "a: missing")
        assertError("<key>a</key><dict></dict>", contains: "a.duration: missing")
        assertError("<key>a</key><dict><key>duration</key><real>-0.1</real></dict>", contains: "a.duration: must be a finite number ≥ 0, got -0.1")
        assertError("<key>a</key><dict><key>duration</key><string>fast</string></dict>", contains: "a.duration: must be a number of seconds, got the string 'fast'")
        assertError("<key>a</key><dict><key>duration</key><true/></dict>", contains: "a.duration: must be a number of seconds, got a boolean")
        assertError("<key>a</key><dict><key>duration</key><real>1</real><key>delay</key><string>x</string></dict>", contains: "a.delay:")
        assertError("<key>a</key><dict><key>duration</key><real>99999</real></dict>", contains: "over the limit")
        assertError("<key>a</key><dict><key>duration</key><real>1</real><key>curve</key><string>bouncy</string></dict>", contains: "a.curve: unknown curve 'bouncy'")
        assertError("<key>a</key><dict><key>duration</key><real>1</real><key>curve</key><array><real>2</real><real>0</real><real>1</real><real>1</real></array></dict>", contains: "a.curve: control point x")
        assertError("<key>a</key><real>1</real>", contains: "a: must be a dictionary")
        assertError("<key>a</key><dict><key>duration</key><real>400</real><key>delay</key><real>300</real></dict>",
                    contains: "a.delay: delay 300.0 s + duration 400.0 s ends after the limit")
        XCTAssertThrowsError(try BlockTimings.parse(Data("not a plist".utf8), path: "p", required: [])) { error in
            XCTAssertEqual("\(error)", "p:1:1: expected an element")
        }
    }

    func testAnUnreadableFileIsAnIOError() {
        XCTAssertThrowsError(try BlockTimings.load(contentsOf: "/nonexistent/durations.plist", required: ["a"])) { error in
            XCTAssertEqual((error as? InputFileError)?.exitStatus, 66)
            XCTAssertEqual("\(error)", "/nonexistent/durations.plist: cannot open the durations file: No such file or directory")
        }
    }
}

final class TransitionContextTests: XCTestCase {
    func testSnapshotsLandWhereTheViewIsInAScrolledContainer() throws {
        let window = View(frame: Rect(x: 0, y: 0, width: 40, height: 40), name: "window")
        window.bounds.origin = Point(x: 0, y: 50)
        let from = View(frame: Rect(x: 0, y: 50, width: 40, height: 40), name: "from")
        let piece = View(frame: Rect(x: 10, y: 10, width: 5, height: 5), name: "piece")
        try from.addSubview(piece)
        let context = try TransitionContext(container: window, fromView: from, toView: View(frame: from.frame),
                                            engine: AnimationEngine(), scale: 1)
        let before = try context.placeSnapshot(of: piece)  // the smokescreen is not in the window yet
        try context.smokescreen.incrementUseCount()
        XCTAssertEqual(before.frame, Rect(x: 10, y: 10, width: 5, height: 5))
        XCTAssertEqual(try before.convert(before.bounds, to: window), try piece.convert(piece.bounds, to: window))
        XCTAssertEqual(try context.rect(of: piece), before.frame, "the same rect once the smokescreen is in")
    }

    func testMovingASnapshotTweensItToTheDestinationsConvertedRect() throws {
        let window = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "window")
        let from = View(frame: window.bounds), to = View(frame: window.bounds)
        let small = View(frame: Rect(x: 10, y: 10, width: 10, height: 10)), large = View(frame: Rect(x: 20, y: 40, width: 60, height: 30))
        try from.addSubview(small); try to.addSubview(large)
        let engine = AnimationEngine(fps: 10)
        let context = try TransitionContext(container: window, fromView: from, toView: to, engine: engine, scale: 1)
        let piece = try context.placeSnapshot(of: small)
        try context.swapViews()
        try context.animateBlock("grow", timing: BlockTiming(duration: 1, curve: .linear), animations: { try context.move(piece, to: large) })
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.presentationValue(of: .center, of: piece).pointValue, Point(x: 32.5, y: 35))
        engine.advance(to: 1)
        XCTAssertEqual(piece.frame, Rect(x: 20, y: 40, width: 60, height: 30))
        XCTAssertNil(context.smokescreen.superview, "the block's completion removed the smokescreen")
    }
}

final class BackdropTests: XCTestCase {
    /// A 12x10 pt window holding `from`, whose subviews are `content`, with a context at `scale`.
    func context(scale: Double, fromOrigin: Point = .zero, content: [View]) throws -> TransitionContext {
        let window = View(frame: Rect(x: 0, y: 0, width: 12, height: 10), name: "window")
        window.backgroundColor = .white
        let from = View(frame: Rect(origin: fromOrigin, size: Size(width: 12, height: 10)), name: "from")
        from.backgroundColor = Color(red8: 30, green8: 140, blue8: 200)
        for view in content { try from.addSubview(view) }
        return try TransitionContext(container: window, fromView: from, toView: View(frame: window.bounds), engine: AnimationEngine(), scale: scale)
    }

    func testAnOpaqueOneColourTreeOnWholePixelsBecomesAPlainViewAndKeepsNoBitmap() throws {
        let context = try self.context(scale: 2, content: [])
        let backdrop = try context.placeBackdrop(of: context.fromView, name: "stage")
        XCTAssertNil(backdrop.image)
        XCTAssertEqual(backdrop.name, "stage")
        XCTAssertEqual(backdrop.frame, Rect(x: 0, y: 0, width: 12, height: 10))
        XCTAssertEqual(backdrop.backgroundColor?.premultiplied, PremultipliedRGBA8(r: 30, g: 140, b: 200, a: 255))
        XCTAssertTrue(backdrop.superview === context.smokescreen)
        XCTAssertTrue(context.snapshots.isEmpty, "no bitmap is held, so none is reported")
    }

    func testATreeThatDrawsOneColourInSeveralPiecesIsFoundByItsPixels() throws {
        let same = View(frame: Rect(x: 2, y: 3, width: 4, height: 4), name: "same")
        same.backgroundColor = Color(red8: 30, green8: 140, blue8: 200)
        let context = try self.context(scale: 1, content: [same])
        XCTAssertNil(context.fromView.snapshotFill(scale: 1), "two fills: the tree alone does not tell")
        let backdrop = try context.placeBackdrop(of: context.fromView, name: "stage")
        XCTAssertNil(backdrop.image)
        XCTAssertEqual(backdrop.backgroundColor?.premultiplied, PremultipliedRGBA8(r: 30, g: 140, b: 200, a: 255))
        XCTAssertEqual(context.smokescreen.subviews.map(\.name), ["stage"])
        XCTAssertTrue(context.snapshots.isEmpty)
    }

    func testAnythingElseStaysASnapshot() throws {
        let spot = View(frame: Rect(x: 2, y: 2, width: 3, height: 3), name: "spot")
        spot.backgroundColor = .black
        let glass = View(frame: Rect(x: 0, y: 0, width: 12, height: 10), name: "glass")
        // Two colours; a translucent single colour; a single colour off the device pixel grid at @1x.
        let cases: [(String, TransitionContext)] = [
            ("two colours", try context(scale: 1, content: [spot])),
            ("translucent", try { let c = try context(scale: 1, content: [glass]); c.fromView.backgroundColor = Color(white: 0.5, alpha: 0.5); return c }()),
            ("half a pixel", try context(scale: 1, fromOrigin: Point(x: 0.5, y: 0), content: [])),
        ]
        for (label, context) in cases {
            let backdrop = try context.placeBackdrop(of: context.fromView)
            XCTAssertNotNil(backdrop.image, label)
            XCTAssertEqual(context.snapshots.count, 1, label)
        }
        // Under a rounded clip an alpha below 1 rounds differently for a fill and an image.
        let rounded = try context(scale: 1, content: [])
        rounded.container.clipsToBounds = true
        rounded.container.cornerRadius = 3
        XCTAssertNotNil(try rounded.placeBackdrop(of: rounded.fromView).image, "under a rounded clip")
        // Too large for a bitmap: the snapshot's error, as before, even though no bitmap would be made.
        let huge = try context(scale: 2, content: [])
        huge.fromView.frame = Rect(x: 0, y: 0, width: 1e6, height: 10)
        XCTAssertThrowsError(try huge.placeBackdrop(of: huge.fromView)) { error in
            guard case ViewTreeError.unrenderable = error else { return XCTFail("\(error)") }
        }
        // At @2x the half point is a whole pixel: a plain view again.
        let halfPoint = try context(scale: 2, fromOrigin: Point(x: 0.5, y: 0), content: [])
        XCTAssertNil(try halfPoint.placeBackdrop(of: halfPoint.fromView).image)
    }

    /// The plain view draws exactly the snapshot's pixels at every alpha a transition can give it, over
    /// something that is not one colour.
    func testThePlainViewDrawsTheSnapshotsPixelsAtEveryAlpha() throws {
        for scale in [1.0, 2.0] {
            let plain = try context(scale: scale, content: []), snapshot = try context(scale: scale, content: [])
            let backdrop = try plain.placeBackdrop(of: plain.fromView)
            let image = try snapshot.placeSnapshot(of: snapshot.fromView)
            XCTAssertNil(backdrop.image)
            for context in [plain, snapshot] {
                let under = View(frame: Rect(x: 3, y: 1, width: 7, height: 7), name: "under")
                under.backgroundColor = Color(red8: 250, green8: 20, blue8: 90, alpha: 0.8)
                try context.smokescreen.insertSubview(under, at: 0)
                try context.smokescreen.incrementUseCount()
            }
            for step in 0...255 {
                let alpha = Double(step) / 255
                backdrop.alpha = alpha
                image.alpha = alpha
                let a = try ViewRenderer.render(plain.container, scale: scale), b = try ViewRenderer.render(snapshot.container, scale: scale)
                XCTAssertEqual(a, b, "@\(scale)x, alpha \(step)/255")
            }
        }
    }
}

final class SnapshotsSideBySideTests: XCTestCase {
    /// A window whose from-view holds a few differently drawn pieces (a label-free tree: fills, a
    /// rounded clip, a translucent view, a border) and one that draws one colour in two fills.
    func makeContext(scale: Double) throws -> (TransitionContext, [View]) {
        let window = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "window")
        window.backgroundColor = .white
        let from = View(frame: window.bounds, name: "from")
        var pieces: [View] = []
        for i in 0..<5 {
            let piece = View(frame: Rect(x: 2 + Double(i) * 7, y: 3 + Double(i), width: 6.5, height: 9), name: "piece \(i)")
            piece.backgroundColor = Color(red8: UInt8(40 * i), green8: 120, blue8: UInt8(200 - 30 * i), alpha: i == 2 ? 0.6 : 1)
            piece.cornerRadius = i == 1 ? 2.5 : 0
            piece.clipsToBounds = i == 1
            if i == 3 { piece.borderWidth = 1; piece.borderColor = .black }
            let inner = View(frame: Rect(x: 1, y: 1, width: 3, height: 4), name: "inner \(i)")
            inner.backgroundColor = Color(red8: 250, green8: UInt8(50 * i), blue8: 10, alpha: 0.8)
            try piece.addSubview(inner)
            try from.addSubview(piece)
            pieces.append(piece)
        }
        let same = View(frame: Rect(x: 5, y: 20, width: 10, height: 5), name: "same")
        same.backgroundColor = .white
        try from.addSubview(same)
        let context = try TransitionContext(container: window, fromView: from, toView: View(frame: window.bounds),
                                            engine: AnimationEngine(), scale: scale)
        return (context, pieces)
    }

    func testSnapshotsDrawnTogetherAreTheSnapshotsDrawnOneByOne() throws {
        for scale in [1.0, 2.0] {
            let (together, pieces) = try makeContext(scale: scale)
            let (oneByOne, samePieces) = try makeContext(scale: scale)
            let placed = try together.placeSnapshotsSideBySide { () throws -> [ImageView] in
                let views = try pieces.map { try together.placeSnapshot(of: $0) } + [try together.placeBackdrop(of: together.fromView, name: "stage")]
                XCTAssertTrue(views.allSatisfy { $0.image == nil }, "no image before the body returns")
                // Frozen when placed: a change after it does not show.
                pieces[0].backgroundColor = .black
                return views
            }
            pieces[0].backgroundColor = samePieces[0].backgroundColor
            let expected = try samePieces.map { try oneByOne.placeSnapshot(of: $0) } + [try oneByOne.placeBackdrop(of: oneByOne.fromView, name: "stage")]
            for (a, b) in zip(placed, expected) {
                XCTAssertEqual(a.image, b.image, "@\(scale)x \(a.name ?? "")")
                XCTAssertEqual(a.frame, b.frame)
                XCTAssertEqual(a.imageIsOpaque, b.imageIsOpaque)
            }
            XCTAssertEqual(together.snapshots.map(\.name), oneByOne.snapshots.map(\.name), "the same records, in order")
            XCTAssertEqual(try ViewRenderer.render(together.container, scale: scale), try ViewRenderer.render(oneByOne.container, scale: scale))
        }
    }

    func testOneThreadOrSeveralDrawTheSame() throws {
        var results: [[Bitmap?]] = []
        for jobs in [1, 3] {
            let (context, pieces) = try makeContext(scale: 2)
            context.snapshotJobs = jobs
            let views = try context.placeSnapshotsSideBySide { try pieces.map { try context.placeSnapshot(of: $0) } }
            results.append(views.map(\.image))
            XCTAssertEqual(context.snapshots.map(\.name), pieces.map { "snapshot of \($0.name!)" }, "jobs \(jobs): records in order")
        }
        XCTAssertEqual(results[0], results[1])
        XCTAssertTrue(results[0].allSatisfy { $0 != nil })
    }

    func testABackdropOfOneColourFoundByItsPixelsKeepsNoImage() throws {
        let (context, pieces) = try makeContext(scale: 1)
        for piece in pieces { piece.isHidden = true }
        context.fromView.backgroundColor = .white
        XCTAssertNil(context.fromView.snapshotFill(scale: 1), "two white fills: the tree alone does not tell")
        let stage = try context.placeSnapshotsSideBySide { try context.placeBackdrop(of: context.fromView, name: "stage") }
        XCTAssertNil(stage.image)
        XCTAssertEqual(stage.backgroundColor?.premultiplied, PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
        XCTAssertTrue(context.snapshots.isEmpty)
    }

    func testANestedCallOnlyRunsItsBodyAndAThrowingBodyLeavesNothingPending() throws {
        let (context, pieces) = try makeContext(scale: 1)
        let outer = try context.placeSnapshotsSideBySide { () throws -> ImageView in
            let inner = try context.placeSnapshotsSideBySide { try context.placeSnapshot(of: pieces[0]) }
            XCTAssertNil(inner.image, "drawn when the outer call returns")
            return inner
        }
        XCTAssertNotNil(outer.image)
        struct Stop: Error {}
        XCTAssertThrowsError(try context.placeSnapshotsSideBySide { _ = try context.placeSnapshot(of: pieces[1]); throw Stop() })
        XCTAssertNotNil(try context.placeSnapshot(of: pieces[2]).image, "drawn at once again")
    }
}

final class TransitionDriverLimitTests: XCTestCase {
    func context(_ engine: AnimationEngine) throws -> TransitionContext {
        let window = View(frame: Rect(x: 0, y: 0, width: 4, height: 4), name: "window")
        window.backgroundColor = .white
        return try TransitionContext(container: window, fromView: View(frame: window.bounds), toView: View(frame: window.bounds),
                                     engine: engine, scale: 1)
    }

    func testCompletionsThatNeverLetTimeMoveOnAreAnError() throws {
        XCTAssertThrowsError(try TransitionDriver.render(name: "loop", settings: RenderSettings(scale: 1, fps: 10, assetsDirectory: "."),
                                                         durations: [:], assets: []) { engine in
            let c = try self.context(engine)
            let box = c.fromView
            func again(_: Bool) { engine.animate(duration: 0, animations: { box.alpha = box.alpha == 1 ? 0.5 : 1 }, completion: again) }
            again(true)
            return c
        }) { error in
            XCTAssertTrue("\(error)".contains("completions keep starting animations"), "\(error)")
        }
    }

    func testTooManyFramesIsAnErrorBeforeTheyAreMade() throws {
        XCTAssertThrowsError(try TransitionDriver.render(name: "long", settings: RenderSettings(scale: 1, fps: 1000, assetsDirectory: ".", holdFrames: 99_990),
                                                         durations: [:], assets: []) { engine in
            let c = try self.context(engine)
            let box = c.fromView
            engine.animate(duration: 1, animations: { box.alpha = 0.5 })
            return c
        }) { error in
            XCTAssertTrue("\(error)".contains("more than the limit of 100000 frames"), "\(error)")
            XCTAssertEqual((error as? RenderError)?.exitStatus, 64, "a usage error: the settings ask for too much")
        }
    }
}
