import SmokescreenStage
import XCTest

final class ScrollViewTests: XCTestCase {
    final class Log: NSObject, UIScrollViewDelegate {
        var events: [String] = []
        func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { events.append("willBeginDragging") }
        func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) { events.append("didEndDragging \(decelerate)") }
        func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) { events.append("didEndDecelerating") }
        func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) { events.append("didEndScrollingAnimation") }
    }

    func testAFingerScrollsWithinTheContentAndAFlickDecelerates() throws {
        let stage = try makeStage(width: 100, height: 100)
        let scroll = UIScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        scroll.contentSize = CGSize(width: 100, height: 400)
        let row = UIView(frame: CGRect(x: 0, y: 150, width: 100, height: 20))
        row.backgroundColor = .systemRed
        scroll.addSubview(row)
        let log = Log()
        scroll.delegate = log
        stage.window.addSubview(scroll)
        try stage.pan(from: CGPoint(x: 50, y: 80), to: CGPoint(x: 50, y: 20), duration: 0.6, releaseVelocity: .zero)
        XCTAssertEqual(scroll.contentOffset, CGPoint(x: 0, y: 60), "the content follows the finger up")
        XCTAssertEqual(log.events, ["willBeginDragging", "didEndDragging false"])
        XCTAssertEqual(row.convert(row.bounds, to: stage.window).minY, 90)
        // A flick decelerates in its direction and stops within the content.
        log.events = []
        try stage.pan(from: CGPoint(x: 50, y: 80), to: CGPoint(x: 50, y: 60), duration: 0.2, releaseVelocity: CGVector(dx: 0, dy: -2000))
        try stage.waitUntilIdle()
        XCTAssertEqual(scroll.contentOffset.y, 300, "to the end of the 400-point content")
        XCTAssertEqual(log.events, ["willBeginDragging", "didEndDragging true", "didEndDecelerating"])
        // Set with animation, the offset animates like the bounds.
        log.events = []
        scroll.setContentOffset(.zero, animated: true)
        try stage.wait(0.15)
        XCTAssertEqual(scroll.layer.presentation()!.bounds.minY, 150, accuracy: 1e-9, "half way, ease in and out")
        try stage.waitUntilIdle()
        XCTAssertEqual(log.events, ["didEndScrollingAnimation"])
    }
}
