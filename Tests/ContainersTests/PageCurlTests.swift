import Foundation
import RasterCore
import SnapshotView
import XCTest
import Containers

/// The page curl: its geometry exactly, and its pixels where the geometry says they are.
final class PageCurlTests: XCTestCase {
    let size = Size(width: 100, height: 120)

    /// A page of one colour curled at `progress` over a background of another, drawn at `scale`.
    func curl(_ progress: Double, page color: Color = Color(red8: 200, green8: 30, blue8: 30), angle: Double = 0, scale: Double = 1,
              background: Color = Color(red8: 0, green8: 0, blue8: 255)) throws -> (Bitmap, PageCurlGeometry) {
        let page = try Bitmap(pointSize: size, scale: scale, fill: color.premultiplied)
        let geometry = PageCurlGeometry(progress: progress, pageSize: size, angle: angle)
        var canvas = try Bitmap(pointSize: size, scale: scale, fill: background.premultiplied)
        // (The painter starts at the bitmap's scale: points in, device pixels out.)
        let painter = Painter(bitmap: canvas)
        PageCurlDrawing(page: page, geometry: geometry).draw(in: painter, bounds: Rect(origin: .zero, size: size))
        canvas = painter.finish()
        if let dump = ProcessInfo.processInfo.environment["CURL_DUMP"] {
            try? Data(canvas.withUnsafeBytes { Array($0) }).write(to: URL(fileURLWithPath: "\(dump)-\(progress)-\(angle)-\(Int(canvas.width))x\(Int(canvas.height)).rgba"))
        }
        return (canvas, geometry)
    }
}

extension PageCurlTests {
    func pixel(_ b: Bitmap, _ x: Double, _ y: Double, scale: Double = 1) -> PremultipliedRGBA8 { b[Int(x * scale), Int(y * scale)] }

    func testTheGeometryIsACylinderThatStartsFlatAndEndsPastTheSpine() {
        let w = size.width
        let start = PageCurlGeometry(progress: 0, pageSize: size)
        XCTAssertEqual(start.radius, 0.15 * w, accuracy: 1e-12)
        XCTAssertLessThanOrEqual(start.farthestDistance, 1e-12, "nothing curls at 0")
        let end = PageCurlGeometry(progress: 1, pageSize: size)
        XCTAssertEqual(end.radius, 0.3 * w, accuracy: 1e-12)
        for p in [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: 0, y: 120), Point(x: w, y: 120), Point(x: 50, y: 60)] {
            XCTAssertLessThanOrEqual(end.project(p).x, 1e-9, "every point past the spine at 1")
        }
        // At 1 the page's nearest corner is exactly two radii from the axis (one of cylinder, one of
        // shadow): the turn ends the moment the last of it leaves the page, straight or tilted, whatever
        // the pivot.
        for (angle, pivot) in [(0.0, 60.0), (-0.35, 0.0), (0.3, 40.0), (0.35, 120.0), (-0.2, 90.0)] {
            let g = PageCurlGeometry(progress: 1, pageSize: size, angle: angle, pivotY: pivot)
            XCTAssertEqual(g.nearestDistance, 2 * g.radius, accuracy: 1e-9, "angle \(angle), pivot \(pivot)")
            let before = PageCurlGeometry(progress: 0.99, pageSize: size, angle: angle, pivotY: pivot)
            XCTAssertLessThan(before.nearestDistance, 2 * before.radius, "still on the page just before the end")
        }
        let g = PageCurlGeometry(progress: 0.5, pageSize: size)
        let r = g.radius
        XCTAssertEqual(g.projectedDistance(-3), -3)
        XCTAssertEqual(g.projectedDistance(0), 0)
        XCTAssertEqual(g.projectedDistance(Double.pi * r / 2), r, accuracy: 1e-12, "a quarter round: the top of the cylinder")
        XCTAssertEqual(g.projectedDistance(Double.pi * r), 0, accuracy: 1e-12, "half round: back over the axis")
        XCTAssertEqual(g.projectedDistance(Double.pi * r + 7), -7, accuracy: 1e-12, "then flat, reversed")
        // Tilted: the axis is turned, and a point on it stays where it is.
        let tilted = PageCurlGeometry(progress: 0.5, pageSize: size, angle: 0.3, pivotY: 40)
        XCTAssertEqual(tilted.towardsEdge.x, cos(0.3), accuracy: 1e-12)
        let onAxis = Point(x: tilted.axisPoint.x + tilted.axisDirection.x * 10, y: tilted.axisPoint.y + tilted.axisDirection.y * 10)
        XCTAssertEqual(tilted.distance(of: onAxis), 0, accuracy: 1e-9)
        XCTAssertEqual(tilted.project(onAxis).x, onAxis.x, accuracy: 1e-9)
    }

    func testNoCracksBetweenStripsAtAnyProgressAngleOrScale() throws {
        for scale in [1.0, 2.0] {
            for angle in [0.0, 0.3, -0.25] {
                // (Past about 0.6 little of the page is left on it.)
                for progress in [0.1, 0.3, 0.45, 0.55] {
                    let (blue, g) = try curl(progress, angle: angle, scale: scale)
                    let (green, _) = try curl(progress, angle: angle, scale: scale, background: Color(red8: 0, green8: 255, blue8: 0))
                    // Every pixel the page covers (its centre at least 2 px inside the page's outline and
                    // away from the fold, where the outline is) shows the page, not what is behind it.
                    let margin = 3 / scale
                    var checked = 0
                    var y = margin
                    while y <= size.height - margin {
                        var x = margin
                        while x <= size.width - margin {
                            defer { x += 0.5 / scale }
                            let s = g.distance(of: Point(x: x, y: y))
                            // Near the fold the cylinder squeezes the page's outline together: not inside by a margin.
                            if s > 0, s < Double.pi * g.radius, abs(cos(s / g.radius)) < 0.5 { continue }
                            let q = g.project(Point(x: x, y: y))
                            let px = Int((q.x * scale).rounded(.down)), py = Int((q.y * scale).rounded(.down))
                            guard px >= 0, py >= 0, px < blue.width, py < blue.height else { continue }
                            checked += 1
                            if blue[px, py] != green[px, py] {
                                XCTFail("a crack at pixel \(px),\(py) (page point \(x),\(y)), progress \(progress), angle \(angle), @\(Int(scale))x: \(blue[px, py]) over blue, \(green[px, py]) over green")
                                return
                            }
                        }
                        y += 0.5 / scale
                    }
                    XCTAssertGreaterThan(checked, 1000, "progress \(progress), angle \(angle), @\(Int(scale))x")
                }
            }
        }
    }

    func testFrontBackAndShadowWhereTheyBelong() throws {
        let red = Color(red8: 200, green8: 30, blue8: 30).premultiplied
        let blue = Color(red8: 0, green8: 0, blue8: 255).premultiplied
        // At 0: the page, flat, everywhere.
        let (flat, _) = try curl(0)
        for (x, y) in [(1.0, 1.0), (50.0, 60.0), (99.0, 119.0)] { XCTAssertEqual(pixel(flat, x, y), red) }
        // At 0.2: flat up to the axis, the front darkening on the cylinder, the back at its top, the
        // shadow beyond, the background further out.
        let (early, g) = try curl(0.2)
        let a = g.axisPoint.x, r = g.radius
        XCTAssertEqual(pixel(early, a - 10, 60), red, "flat before the axis")
        // The pixel whose centre is about R/2 past the axis: θ = asin(u/R) ≈ π/6 on the front, shade
        // 0.35 (1 − cos θ) ≈ 0.05 (±0.02: one shade per strip, and a pixel spans two strips).
        let column = (a + r / 2).rounded(.down)
        let theta = asin((column + 0.5 - a) / r)
        let front = pixel(early, column, 60)
        XCTAssertEqual(Double(front.r), 200 * (1 - 0.35 * (1 - cos(theta))), accuracy: 4)
        XCTAssertEqual(front.b, front.g)
        XCTAssertLessThan(front.r, 200)
        // At 0.3 the back shows on the outer part of the cylinder (it came over the top): washed towards white.
        let (later, l) = try curl(0.3)
        let back = pixel(later, l.axisPoint.x + l.radius * 0.85, 60)
        XCTAssertGreaterThan(back.g, 120, "washed out: much lighter than the red front (green \(back.g))")
        let shadow = pixel(early, a + r + 1.5, 60)
        XCTAssertEqual(shadow.r, 0)
        XCTAssertLessThan(shadow.b, 230, "the shadow darkens the background next to the curl")
        XCTAssertGreaterThan(shadow.b, 150)
        XCTAssertEqual(pixel(later, l.axisPoint.x + 2 * l.radius + 2, 60), blue, "no shadow beyond one radius from the curl")
        // At 0.5: the part turned over lies flat and mirrored, washed: 0.3 red + 0.7 white.
        let (half, h) = try curl(0.5)
        let over = pixel(half, h.axisPoint.x - 6, 60)
        XCTAssertEqual(Double(over.r), 0.3 * 200 + 0.7 * 255, accuracy: 2)
        XCTAssertEqual(Double(over.g), 0.3 * 30 + 0.7 * 255, accuracy: 2)
        // At 1: gone; only the background.
        let (gone, _) = try curl(1)
        for (x, y) in [(1.0, 1.0), (50.0, 60.0), (99.0, 119.0)] { XCTAssertEqual(pixel(gone, x, y), blue) }
        // Just before it, the cylinder's shadow is still at the spine: a turn shows motion to its end.
        let (ending, _) = try curl(0.9)
        XCTAssertNotEqual(pixel(ending, 0.5, 60), blue, "something of the curl at the spine at 0.9")
    }

    /// The back is the page washed once: 70 % white over every pixel, opaque content to 0.3 c + 0.7 × 255
    /// (within the one rounding), transparent pixels to 70 % white; the curl draws its back strips from it.
    func testTheBackIsThePageWashedOnce() throws {
        var page = try Bitmap(width: 2, height: 1, scale: 1, fill: Color(red8: 200, green8: 30, blue8: 30).premultiplied)
        page[1, 0] = .clear
        let back = PageCurlDrawing.washedBack(of: page)
        XCTAssertEqual(Double(back[0, 0].r), 0.3 * 200 + 0.7 * 255, accuracy: 1)
        XCTAssertEqual(Double(back[0, 0].g), 0.3 * 30 + 0.7 * 255, accuracy: 1)
        XCTAssertEqual(back[0, 0].a, 255)
        XCTAssertEqual(Double(back[1, 0].a), 0.7 * 255, accuracy: 1)
        XCTAssertEqual(back[1, 0].r, back[1, 0].a, "white, premultiplied")
        XCTAssertEqual(page[0, 0], Color(red8: 200, green8: 30, blue8: 30).premultiplied, "the page itself is unchanged")
    }

    /// The cylinder is shaded per device pixel, not per strip: every pixel across it, front or back, is
    /// the page's colour (washed on the back) times 1 − 0.35 (1 − cos θ) with sin θ = u / R at the
    /// pixel's centre, within 2 levels (the wash and the shade each round once); strips shaded by their
    /// middles were up to 8 levels off, in visible bands at @2x. Pixels within 2 of where the back
    /// begins, and of the cylinder's ends, are left out (strips overlap there).
    func testTheCylinderIsShadedPerPixel() throws {
        let scale = 2.0
        let (bitmap, g) = try curl(0.2, scale: scale)
        let a = g.axisPoint.x, r = g.radius, far = g.farthestDistance
        let red = [200.0, 30, 30]
        // Where the back, come over the top, starts to cover the front: u = R sin((πR − far) / R).
        let backStart = r * sin((Double.pi * r - far) / r)
        var checked = 0
        for px in Int((a * scale).rounded(.up))..<Int(((a + r) * scale).rounded(.down)) {
            let u = (Double(px) + 0.5) / scale - a
            guard u > 2 / scale, u < r - 2 / scale, abs(u - backStart) > 2 / scale else { continue }
            let x = u / r
            let shade = 0.35 * (1 - (1 - x * x).squareRoot())
            let back = u > backStart
            let expected = red.map { (back ? 0.3 * $0 + 0.7 * 255 : $0) * (1 - shade) }
            let p = bitmap[px, Int(60 * scale)]
            for (value, want) in zip([p.r, p.g, p.b], expected) {
                XCTAssertEqual(Double(value), want, accuracy: 2, "pixel \(px) (u = \(u), \(back ? "back" : "front")): \(p)")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 20)
    }

    /// Issue 28: the cast shadow is a smooth gradient: across its width, no two neighbouring device
    /// pixels differ by more than 2 levels (it was drawn in 3–4 pt steps, 15+ levels apart), at @1x and
    /// @2x, straight and tilted, on a 320 pt page (iNippon's).
    func testTheShadowIsASmoothGradient() throws {
        let pageSize = Size(width: 320, height: 60)
        for scale in [1.0, 2.0] {
            for angle in [0.0, -0.3] {
                for progress in [0.05, 0.15, 0.3, 0.45] {
                    let page = try Bitmap(pointSize: pageSize, scale: scale, fill: Color(white: 0.6).premultiplied)
                    let g = PageCurlGeometry(progress: progress, pageSize: pageSize, angle: angle)
                    // (The painter draws in points at the bitmap's scale.)
                    let painter = Painter(bitmap: try Bitmap(pointSize: pageSize, scale: scale, fill: Color.white.premultiplied))
                    PageCurlDrawing(page: page, geometry: g).draw(in: painter, bounds: Rect(origin: .zero, size: pageSize))
                    let canvas = painter.finish()
                    if let dump = ProcessInfo.processInfo.environment["CURL_DUMP"] {
                        try? Data(canvas.withUnsafeBytes { Array($0) }).write(to: URL(fileURLWithPath: "\(dump)-\(progress)-\(angle)-\(canvas.width)x\(canvas.height).rgba"))
                    }
                    let r = g.radius, half = Double.pi * r
                    let edge = g.farthestDistance >= half / 2 ? r : g.projectedDistance(g.farthestDistance)
                    for y in [10.0, 30.0, 50.0] {
                        var previous: Int?
                        for px in 0..<canvas.width {
                            let u = g.distance(of: Point(x: (Double(px) + 0.5) / scale, y: y))
                            // Inside the shadow, a pixel clear of the curl's edge.
                            guard u > edge + 1.5 / scale, u < edge + r + 1 / scale else { previous = nil; continue }
                            let value = Int(canvas[px, Int(y * scale)].b)
                            if let previous {
                                XCTAssertLessThanOrEqual(abs(value - previous), 2, "@\(scale)x angle \(angle) progress \(progress) x \(px) y \(y)")
                            }
                            previous = value
                        }
                    }
                }
            }
        }
        // The fall-off: 0.25 at the edge, (1 − f)^1.25 after, 0 at the far side.
        XCTAssertEqual(PageCurlDrawing.shadowAlpha(at: 0), 0.25)
        XCTAssertEqual(PageCurlDrawing.shadowAlpha(at: 0.5), 0.25 * pow(0.5, 1.25), accuracy: 1e-12)
        XCTAssertEqual(PageCurlDrawing.shadowAlpha(at: 1), 0)
        // The table the per-pixel mask reads: within 2e-6 of the function everywhere (and exact at samples).
        for k in 0...10_000 {
            let f = Double(k) / 10_000
            XCTAssertEqual(PageCurlDrawing.shadowProfile.value(at: f), PageCurlDrawing.shadowAlpha(at: f), accuracy: 2e-6, "f = \(f)")
        }
    }

    /// Issue 28: the curl's outer line is anti-aliased once at @1x (before, every strip reaching it was
    /// cut there, and their partial coverages stacked into a hard, jagged edge): along a tilted edge,
    /// each edge pixel is the blend of the curl and the page below in proportion to its exact area.
    func testTheOuterLineIsAntiAliasedOnce() throws {
        let pageSize = Size(width: 320, height: 120)
        let page = try Bitmap(pointSize: pageSize, scale: 1, fill: Color(red8: 200, green8: 30, blue8: 30).premultiplied)
        let g = PageCurlGeometry(progress: 0.3, pageSize: pageSize, angle: -0.2)
        let painter = Painter(bitmap: try Bitmap(pointSize: pageSize, scale: 1, fill: Color(red8: 0, green8: 0, blue8: 255).premultiplied))
        let drawing = PageCurlDrawing(page: page, geometry: g)
        drawing.draw(in: painter, bounds: Rect(origin: .zero, size: pageSize))
        let canvas = painter.finish()
        let n = g.towardsEdge, r = g.radius
        var errors: [Double] = []
        for y in 20..<100 {
            // Where the outer line u = r crosses the row's centre line (pixels).
            let yc = Double(y) + 0.5
            let xe = g.axisPoint.x + (r - (yc - g.axisPoint.y) * n.y) / n.x
            let px = Int(xe.rounded(.down))
            guard px > 3, px < 316 else { continue }
            // The curl 2 px inside the line and the page below 2 px outside it (blue channel).
            let inside = Double(canvas[px - 2, y].b), outside = Double(canvas[px + 2, y].b)
            guard abs(outside - inside) > 40 else { continue }
            let value = Double(canvas[px, y].b)
            // The edge's exact share of the pixel (the slope across one row is small: the area is close to
            // the share at the centre line).
            let covered = xe - Double(px)
            let expected = inside * covered + outside * (1 - covered)
            errors.append(abs(value - expected) / abs(outside - inside))
        }
        XCTAssertGreaterThan(errors.count, 40)
        let mean = errors.reduce(0, +) / Double(errors.count)
        XCTAssertLessThan(mean, 0.15, "the edge pixels follow the exact coverage (mean error \(mean))")
    }
}


extension PageCurlTests {
    /// Through an anti-aliased clip (or with an alpha) the curl is drawn into a buffer of its own and
    /// composited through the painter; where the clip covers whole pixels that gives exactly what the
    /// curl drawn straight into the frame gives, and outside the clip nothing changes.
    func testThroughAClipMaskTheCurlIsTheSameWhereTheClipCoversWholePixels() throws {
        let scale = 2.0
        let page = try Bitmap(pointSize: size, scale: scale, fill: Color(red8: 200, green8: 30, blue8: 30).premultiplied)
        for angle in [0.0, 0.3] {
            let g = PageCurlGeometry(progress: 0.4, pageSize: size, angle: angle)
            func draw(clip: Path?) throws -> Bitmap {
                let painter = Painter(bitmap: try Bitmap(pointSize: size, scale: scale, fill: Color(red8: 0, green8: 0, blue8: 255).premultiplied))
                if let clip { painter.clip(to: clip) }
                PageCurlDrawing(page: page, geometry: g).draw(in: painter, bounds: Rect(origin: .zero, size: size))
                return painter.finish()
            }
            let straight = try draw(clip: nil)
            // A clip whose left edge is at a quarter pixel: a mask, so the buffer path.
            let clipped = try draw(clip: Path(rect: Rect(x: 10.125, y: 0, width: 80, height: 120)))
            let background = PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255)
            var compared = 0
            for y in 0..<straight.height {
                for x in 0..<straight.width {
                    let px = Double(x) / scale
                    // (The clip spans 10.125…90.125 pt; a device pixel spans px…px + 0.5.)
                    if px >= 10.125, px + 0.5 <= 90.125 {
                        XCTAssertEqual(clipped[x, y], straight[x, y], "pixel \(x),\(y) angle \(angle)"); compared += 1
                    } else if px + 0.5 <= 10.125 || px >= 90.125 {
                        XCTAssertEqual(clipped[x, y], background, "outside the clip \(x),\(y)")
                    }
                }
            }
            XCTAssertGreaterThan(compared, 30_000)
            XCTAssertNotEqual(clipped[Int(50 * scale), Int(60 * scale)], background, "the curl is drawn through the clip")
        }
    }

    /// Geometry the C pass cannot use draws nothing and never traps: a zero normal, a page placed
    /// 1e19 points away.
    func testImpossibleGeometryDrawsNothing() throws {
        let page = try Bitmap(pointSize: size, scale: 1, fill: Color(red8: 200, green8: 30, blue8: 30).premultiplied)
        let blue = try Bitmap(pointSize: size, scale: 1, fill: Color(red8: 0, green8: 0, blue8: 255).premultiplied)
        var degenerate = PageCurlGeometry(progress: 0.4, pageSize: size)
        degenerate.towardsEdge = Point(x: 0, y: 0)
        degenerate.axisPoint = Point(x: 0, y: 10)
        let painter = Painter(bitmap: blue)
        PageCurlDrawing(page: page, geometry: degenerate).draw(in: painter, bounds: Rect(origin: .zero, size: size))
        XCTAssertEqual(painter.finish(), blue)
        let far = Painter(bitmap: blue)
        far.translate(x: 1e19, y: -1e19)
        PageCurlDrawing(page: page, geometry: PageCurlGeometry(progress: 0.4, pageSize: size)).draw(in: far, bounds: Rect(origin: .zero, size: size))
        XCTAssertEqual(far.finish(), blue)
    }
}
