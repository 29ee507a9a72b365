import Foundation
import RasterCore
import XCTest
import SnapshotView

/// `RenderNode.drawnDescription`: a frozen tree as what it draws, in frame pixels (what the reference
/// renderer of `ReferenceRendererTests` draws again with cairo).
final class DrawnTreeTests: XCTestCase {
    struct Shapes: OperationContent {
        func operations(in bounds: Rect) -> [DrawingOperation] {
            [.rect(Rect(x: 1, y: 1, width: 2, height: 2), .black),
             .clippedToRect(bounds, [.faded(0.5, [.path(Path(ellipseIn: bounds), Color(white: 1))])])]
        }
    }

    /// Draws with more than shapes: exported as Smokescreen's raster.
    struct Opaque: ViewContent {
        func draw(in painter: Painter, bounds: Rect) { painter.fill(bounds, color: .black) }
    }

    func testTheTreeCarriesTransformsGroupsClipsBordersImagesShapesTextAndRasters() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "root")
        root.backgroundColor = .white
        let group = View(frame: Rect(x: 10, y: 5, width: 20, height: 10), name: "group")
        group.alpha = 0.5
        group.cornerRadius = 3
        group.clipsToBounds = true
        group.borderWidth = 1
        group.borderColor = Color(red: 1, green: 0, blue: 0)
        group.backgroundColor = Color(white: 0.5)
        var pixels = try Bitmap(width: 4, height: 2, scale: 2)
        pixels.draw { $0.fill(Rect(x: 0, y: 0, width: 2, height: 1), color: .black) }
        let image = ImageView(image: pixels, frame: Rect(x: 2, y: 1, width: 8, height: 4), name: "image")
        let label = Label(text: "Hi", frame: Rect(x: 0, y: 20, width: 20, height: 10), name: "label")
        let shapes = DrawingView(frame: Rect(x: 20, y: 20, width: 4, height: 4), drawing: Shapes(), name: "shapes")
        let raster = DrawingView(frame: Rect(x: 30, y: 20, width: 5, height: 5), drawing: Opaque(), name: "raster")
        raster.transform = Transform2D(scaleX: 2, y: 2)
        try group.addSubview(image)
        for v in [group, label, shapes, raster] { try root.addSubview(v) }

        let node = try XCTUnwrap(root.renderNode())
        let tree = node.drawnDescription(width: 80, height: 60, scale: 2)
        let top = try XCTUnwrap(tree.root)
        XCTAssertEqual(top.transform, [2, 0, 0, 2, 0, 0])
        XCTAssertEqual(top.background, [1, 1, 1, 1])
        XCTAssertEqual(top.children.map(\.name), ["group", "label", "shapes", "raster"])

        let g = top.children[0]
        XCTAssertTrue(g.group, "alpha 0.5 over a background, a border and an image: one group")
        XCTAssertEqual(g.alpha, 0.5)
        XCTAssertEqual(g.transform, [2, 0, 0, 2, 20, 10])
        XCTAssertEqual(g.groupClip, [20, 10, 40, 20])
        XCTAssertEqual(g.cornerRadius, 3)
        XCTAssertTrue(g.clipsToBounds)
        XCTAssertEqual(g.border?.width, 1)
        XCTAssertEqual(g.border?.color, [1, 0, 0, 1])

        // The image: 4x2 pixels stretched to 8x4 points at (2, 1) in the group, the group at (20, 10) px.
        let content = try XCTUnwrap(g.children.first?.content)
        XCTAssertEqual(content.kind, "image")
        XCTAssertEqual(content.imageTransform, [4, 0, 0, 4, 24, 12])
        XCTAssertEqual(content.image, DrawnTree.imageFileName(0))
        XCTAssertEqual(tree.images.first, pixels)

        XCTAssertEqual(top.children[1].content?.kind, "text")
        XCTAssertEqual(tree.textBoxes, [PixelRect(x: 0, y: 39, width: 41, height: 21)], "the label's box, 1 px more, within the frame")

        let ops = try XCTUnwrap(top.children[2].content?.operations)
        XCTAssertEqual(ops.map(\.op), ["rect", "clipRect"])
        XCTAssertEqual(ops[0].rect, [1, 1, 2, 2])
        XCTAssertEqual(ops[1].operations?.first?.op, "fade")
        XCTAssertEqual(ops[1].operations?.first?.alpha, 0.5)
        XCTAssertTrue(ops[1].operations?.first?.operations?.first?.path?.hasPrefix("M ") ?? false)

        // Scaled 2x about its centre (32.5, 22.5 pt): it covers 27.5…37.5 pt, 55…75 px across. A scaled
        // DrawingView goes through its backing store: 5 pt at 2 px a point, 10x10 px, placed at 2x.
        let r = try XCTUnwrap(top.children[3].content)
        XCTAssertEqual(r.kind, "raster")
        XCTAssertEqual(r.imageTransform, [2, 0, 0, 2, 55, 35])
        let bitmap = tree.images[try XCTUnwrap(tree.images.indices.first { DrawnTree.imageFileName($0) == r.image })]
        XCTAssertEqual(bitmap.width, 10)
        XCTAssertEqual(bitmap.height, 10)
        XCTAssertEqual(bitmap[5, 5], Color.black.premultiplied)

        // It encodes, with the images as file names.
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(tree)) as? [String: Any])
        XCTAssertEqual(json["images"] as? [String], [DrawnTree.imageFileName(0), DrawnTree.imageFileName(1)])
    }

    func testOperationContentDrawsItsOperations() throws {
        var direct = try Bitmap(width: 8, height: 8, scale: 2)
        direct.draw { painter in
            for op in Shapes().operations(in: Rect(x: 0, y: 0, width: 4, height: 4)) { op.draw(in: painter) }
        }
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 4, height: 4), drawing: Shapes())
        XCTAssertEqual(try view.snapshot(scale: 2), direct)
    }

    /// A gradient rounded by its corner radius (no clip) is exported as a raster already rounded, as the
    /// frame draws it: its corner transparent, its middle the gradient.
    func testARoundedGradientIsExportedRounded() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "root")
        let gradient = GradientView(frame: Rect(x: 5, y: 5, width: 30, height: 20), name: "gradient")
        gradient.gradient = Gradient(kind: .axial, stops: [Gradient.Stop(location: 0, color: .black), Gradient.Stop(location: 1, color: .white)],
                                     start: Point(x: 0, y: 0.5), end: Point(x: 1, y: 0.5))
        gradient.cornerRadius = 8
        try root.addSubview(gradient)
        let tree = try XCTUnwrap(root.renderNode()).drawnDescription(width: 40, height: 30, scale: 1)
        let content = try XCTUnwrap(tree.root?.children.first?.content)
        XCTAssertEqual(content.kind, "raster")
        let image = tree.images[Int(content.image!.dropFirst("image-".count).dropLast(".png".count))!]
        let origin = (x: Int(content.imageTransform![4]), y: Int(content.imageTransform![5]))
        XCTAssertEqual(image[5 - origin.x, 5 - origin.y].a, 0, "the corner, outside the rounding")
        XCTAssertEqual(image[20 - origin.x, 15 - origin.y].a, 255, "the middle")
    }
}

/// A view turned in 3-D: drawn through its projection, and exported as Smokescreen's pixels of it.
final class ProjectedViewTests: XCTestCase {
    private var perspective: Transform3D { var p = Transform3D.identity; p.m34 = -1 / 200; return p }

    private func scene() throws -> (root: View, card: View) {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "root")
        root.backgroundColor = .white
        let card = View(frame: Rect(x: 10, y: 5, width: 20, height: 20), name: "card")
        card.backgroundColor = Color(red: 1, green: 0, blue: 0)
        card.transform3D = Transform3D(rotationAngle: 0.7, x: 0, y: 1, z: 0).concatenating(perspective)
        try root.addSubview(card)
        return (root, card)
    }

    func testAProjectedNodeIsAProjectionAndItsExtentIsItsQuad() throws {
        let (root, _) = try scene()
        let node = try XCTUnwrap(root.renderNode())
        let card = try XCTUnwrap(node.children.first)
        XCTAssertNotNil(card.projection)
        // Turned by 0.7 about its centre, it is narrower than its 20 points.
        XCTAssertLessThan(card.extentInParent.width, 20)
        XCTAssertGreaterThan(card.extentInParent.width, 12)
    }

    func testTheExportHoldsItsPixelsWhereTheFrameHasThem() throws {
        let (root, _) = try scene()
        let node = try XCTUnwrap(root.renderNode())
        var frame = try Bitmap(width: 80, height: 60, scale: 2)
        ViewRenderer.draw(node, into: &frame)
        let tree = node.drawnDescription(width: 80, height: 60, scale: 2)
        let exported = try XCTUnwrap(tree.root?.children.first)
        XCTAssertEqual(exported.content?.kind, "raster")
        XCTAssertEqual(exported.content?.type, "projected layer")
        let transform = try XCTUnwrap(exported.content?.imageTransform)
        let image = tree.images[Int(exported.content!.image!.dropFirst("image-".count).dropLast(".png".count))!]
        // The raster drawn over the root's white at its offset gives the frame's pixels, within a level
        // on the card's edge (there the raster's coverage is rounded once more than in the frame).
        var again = try Bitmap(width: 80, height: 60, scale: 2, fill: .white)
        again.draw { $0.draw(image, atDevicePixel: (Int(transform[4]), Int(transform[5]))) }
        var largest = 0
        for y in 0..<60 { for x in 0..<80 {
            let a = again[x, y], b = frame[x, y]
            largest = max(largest, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
        } }
        XCTAssertLessThanOrEqual(largest, 1)
    }

    func testAViewWhoseBackFacesTheViewerIsHiddenWhenNotDoubleSided() throws {
        let (root, card) = try scene()
        card.transform3D = Transform3D(rotationAngle: 2.6, x: 1, y: 0, z: 0).concatenating(perspective)
        var shown = try Bitmap(width: 40, height: 30, scale: 1)
        ViewRenderer.draw(try XCTUnwrap(root.renderNode()), into: &shown)
        XCTAssertEqual(shown[20, 15].a, 255)
        XCTAssertEqual(shown[20, 15].g, 0, "the back of the card shows")
        card.isDoubleSided = false
        var hidden = try Bitmap(width: 40, height: 30, scale: 1)
        ViewRenderer.draw(try XCTUnwrap(root.renderNode()), into: &hidden)
        XCTAssertEqual(hidden, try Bitmap(width: 40, height: 30, scale: 1, fill: .white))
    }
}
