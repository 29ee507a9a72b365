import SmokescreenStage
import XCTest

final class GeometryTests: XCTestCase {
    func testTransformsComposeInCoreGraphicsOrder() {
        // scaledBy prepends: the point is scaled first, then translated.
        let t = CGAffineTransform(translationX: 10, y: 0).scaledBy(x: 2, y: 2)
        XCTAssertEqual(CGPoint(x: 1, y: 1).applying(t), CGPoint(x: 12, y: 2))
        // concatenating appends: self first.
        let u = CGAffineTransform(scaleX: 2, y: 2).concatenating(CGAffineTransform(translationX: 10, y: 0))
        XCTAssertEqual(CGPoint(x: 1, y: 1).applying(u), CGPoint(x: 12, y: 2))
        XCTAssertEqual(t, u)
        // A quarter turn takes +x to +y (y down on the screen: clockwise).
        let r = CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))
        XCTAssertEqual(r.x, 0, accuracy: 1e-15)
        XCTAssertEqual(r.y, 1, accuracy: 1e-15)
        XCTAssertEqual(t.concatenating(t.inverted()), .identity)
        // A transform that cannot be inverted comes back unchanged, as Core Graphics'.
        let flat = CGAffineTransform(scaleX: 0, y: 1)
        XCTAssertEqual(flat.inverted(), flat)
    }

    func testInsetsTakeEdgesOff() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 50).inset(by: UIEdgeInsets(top: 5, left: 10, bottom: 15, right: 20))
        XCTAssertEqual(r, CGRect(x: 10, y: 5, width: 70, height: 30))
    }

    func testAutoresizingSharesTheChangeAmongFlexibleParts() {
        let parent = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        func child(_ mask: UIView.AutoresizingMask) -> UIView {
            let view = UIView(frame: CGRect(x: 10, y: 10, width: 80, height: 80))
            view.autoresizingMask = mask
            parent.addSubview(view)
            return view
        }
        let width = child(.flexibleWidth)
        let margins = child([.flexibleLeftMargin, .flexibleRightMargin])
        let leftAndWidth = child([.flexibleLeftMargin, .flexibleWidth])
        let fixed = child([])
        let height = child([.flexibleHeight, .flexibleBottomMargin])
        parent.frame = CGRect(x: 0, y: 0, width: 200, height: 190)
        XCTAssertEqual(width.frame, CGRect(x: 10, y: 10, width: 180, height: 80))
        // Two margins of 10: each takes half of the 100 points.
        XCTAssertEqual(margins.frame, CGRect(x: 60, y: 10, width: 80, height: 80))
        // A margin of 10 and a width of 80: 10/90 and 80/90 of the 100 points.
        XCTAssertEqual(leftAndWidth.frame.minX, 10 + 100 * 10 / 90, accuracy: 1e-12)
        XCTAssertEqual(leftAndWidth.frame.width, 80 + 100 * 80 / 90, accuracy: 1e-12)
        XCTAssertEqual(fixed.frame, CGRect(x: 10, y: 10, width: 80, height: 80))
        // A height of 80 and a bottom margin of 10 share 90 points.
        XCTAssertEqual(height.frame.height, 80 + 90 * 80 / 90, accuracy: 1e-12)
        XCTAssertEqual(height.frame.minY, 10)
        // Turned off, nothing follows.
        parent.autoresizesSubviews = false
        parent.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertEqual(width.frame.width, 180)
    }

    func testAutoresizingKeepsATransform() {
        let parent = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let view = UIView(frame: CGRect(x: 10, y: 10, width: 80, height: 80))
        view.autoresizingMask = .flexibleWidth
        view.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
        parent.addSubview(view)
        parent.bounds.size.width = 200
        XCTAssertEqual(view.bounds.size, CGSize(width: 180, height: 80))
        XCTAssertEqual(view.center, CGPoint(x: 100, y: 50))
        XCTAssertEqual(view.transform, CGAffineTransform(scaleX: 0.5, y: 0.5))
    }

    func testNonFiniteGeometryIsIgnored() {
        let view = UIView(frame: CGRect(x: 1, y: 2, width: 30, height: 40))
        let before = (view.frame, view.bounds, view.center, view.transform)
        view.frame = CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10)
        view.bounds = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 10)
        view.center = CGPoint(x: 0, y: -.infinity)
        view.transform = CGAffineTransform(scaleX: CGFloat.nan, y: 1)
        view.layer.position = CGPoint(x: CGFloat.nan, y: 0)
        view.layer.cornerRadius = .nan
        view.alpha = .nan
        XCTAssertEqual(view.frame, before.0)
        XCTAssertEqual(view.bounds, before.1)
        XCTAssertEqual(view.center, before.2)
        XCTAssertEqual(view.transform, before.3)
        XCTAssertEqual(view.layer.cornerRadius, 0)
        XCTAssertEqual(view.alpha, 1)
        // Negative sizes are standardized, as Core Graphics' rectangles are.
        view.frame = CGRect(x: 10, y: 10, width: -4, height: -6)
        XCTAssertEqual(view.frame, CGRect(x: 6, y: 4, width: 4, height: 6))
    }
}
