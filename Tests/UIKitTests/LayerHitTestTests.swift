import Foundation
import SmokescreenStage
import XCTest

/// `CALayer.contains(_:)` and `hitTest(_:)` as Core Animation's: the bounds, the front-most deepest layer,
/// hidden layers skipped, masks to bounds, the superlayer's coordinates through every transform.
final class LayerHitTestTests: XCTestCase {
    func layer(_ frame: CGRect, in parent: CALayer? = nil) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        parent?.addSublayer(layer)
        return layer
    }

    func testContainsIsTheBoundsWithHalfOpenEdges() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertTrue(layer.contains(CGPoint(x: 10, y: 20)))
        XCTAssertTrue(layer.contains(CGPoint(x: 39.99, y: 59.99)))
        XCTAssertFalse(layer.contains(CGPoint(x: 40, y: 30)))
        XCTAssertFalse(layer.contains(CGPoint(x: 9.99, y: 30)))
    }

    func testTheFrontMostDeepestLayerIsHit() {
        let root = layer(CGRect(x: 0, y: 0, width: 200, height: 200))
        let back = layer(CGRect(x: 10, y: 10, width: 100, height: 100), in: root)
        let front = layer(CGRect(x: 60, y: 60, width: 100, height: 100), in: root)
        let inner = layer(CGRect(x: 10, y: 10, width: 20, height: 20), in: front)  // 70…90 in the root's
        XCTAssertTrue(root.hitTest(CGPoint(x: 20, y: 20)) === back)
        XCTAssertTrue(root.hitTest(CGPoint(x: 80, y: 80)) === inner)
        XCTAssertTrue(root.hitTest(CGPoint(x: 100, y: 100)) === front, "where back and front overlap: the front")
        XCTAssertTrue(root.hitTest(CGPoint(x: 180, y: 20)) === root)
        XCTAssertNil(root.hitTest(CGPoint(x: 250, y: 20)))
        // zPosition draws back in front, and so hits it first.
        back.zPosition = 1
        XCTAssertTrue(root.hitTest(CGPoint(x: 100, y: 100)) === back)
        back.zPosition = 0
        // A hidden layer is skipped with its sublayers; a transparent one is still hit.
        front.isHidden = true
        XCTAssertTrue(root.hitTest(CGPoint(x: 80, y: 80)) === back)
        front.isHidden = false
        front.opacity = 0
        XCTAssertTrue(root.hitTest(CGPoint(x: 80, y: 80)) === inner)
        // Asked of a sublayer, the point is in that layer's superlayer's coordinates.
        XCTAssertTrue(front.hitTest(CGPoint(x: 80, y: 80)) === inner)
        XCTAssertTrue(front.hitTest(CGPoint(x: 150, y: 150)) === front)
        XCTAssertNil(front.hitTest(CGPoint(x: 50, y: 50)))
    }

    func testSublayersOutsideTheBoundsAreHitUnlessItMasksToThem() {
        let root = layer(CGRect(x: 0, y: 0, width: 100, height: 100))
        let outside = layer(CGRect(x: 150, y: 0, width: 50, height: 50), in: root)
        XCTAssertTrue(root.hitTest(CGPoint(x: 160, y: 10)) === outside)
        root.masksToBounds = true
        XCTAssertNil(root.hitTest(CGPoint(x: 160, y: 10)))
        XCTAssertTrue(root.hitTest(CGPoint(x: 10, y: 10)) === root)
    }

    func testThePointGoesThroughPositionAndTransforms() {
        // No superlayer: the point is in the space of `position`.
        let root = layer(CGRect(x: 100, y: 100, width: 200, height: 200))
        XCTAssertTrue(root.hitTest(CGPoint(x: 110, y: 110)) === root)
        XCTAssertNil(root.hitTest(CGPoint(x: 90, y: 110)))
        // Scaled twice about its centre, a 50-pt layer at (0, 0) covers -25…75 of the root's coordinates.
        let scaled = layer(CGRect(x: 0, y: 0, width: 50, height: 50), in: root)
        scaled.transform = CATransform3DMakeScale(2, 2, 1)
        XCTAssertTrue(root.hitTest(CGPoint(x: 170, y: 170)) === scaled)
        XCTAssertTrue(root.hitTest(CGPoint(x: 180, y: 180)) === root)
        scaled.removeFromSuperlayer()
        // Turned 60° about y in perspective, a 100-pt layer is seen between about 20 and 32 pt of its
        // centre: hit near the centre, missed 40 pt out on either side, where the flat layer would be hit.
        let turned = layer(CGRect(x: 50, y: 50, width: 100, height: 100), in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 200
        turned.transform = CATransform3DRotate(perspective, .pi / 3, 0, 1, 0)
        for dx: CGFloat in [-15, 15] { XCTAssertTrue(root.hitTest(CGPoint(x: 200 + dx, y: 200)) === turned, "\(dx)") }
        for dx: CGFloat in [-40, 40] { XCTAssertTrue(root.hitTest(CGPoint(x: 200 + dx, y: 200)) === root, "\(dx)") }
    }
}
