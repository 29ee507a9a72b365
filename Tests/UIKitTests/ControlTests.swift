import SmokescreenStage
import XCTest

final class ControlTests: XCTestCase {
    final class Receiver: NSObject {
        var events: [String] = []
        func tapped(_ sender: UIButton) { events.append("tapped \(sender.currentTitle ?? "")") }
        func down() { events.append("down") }
    }

    func testATapSendsTouchUpInsideToTargetsAndActions() throws {
        let stage = try makeStage(width: 100, height: 60)
        let receiver = Receiver()
        let button = UIButton(type: .system)
        button.frame = CGRect(x: 10, y: 10, width: 80, height: 40)
        button.setTitle("Open", for: .normal)
        button.addTarget(receiver, action: Selector(Receiver.tapped(_:)), for: .touchUpInside)
        button.addTarget(receiver, action: Selector(Receiver.down), for: .touchDown)
        var handled = 0
        button.addAction(UIAction { action in
            XCTAssertTrue(action.sender as? UIButton === button)
            handled += 1
        }, for: .primaryActionTriggered)
        stage.window.addSubview(button)
        try stage.touchDown(at: CGPoint(x: 50, y: 30))
        XCTAssertTrue(button.isHighlighted)
        XCTAssertEqual(button.state, .highlighted)
        stage.liftTouch()
        XCTAssertFalse(button.isHighlighted)
        XCTAssertEqual(receiver.events, ["down", "tapped Open"])
        XCTAssertEqual(handled, 1)
        // A disabled button sends nothing; its title is still what was set.
        button.isEnabled = false
        try stage.tap(at: CGPoint(x: 50, y: 30))
        XCTAssertEqual(receiver.events.count, 2)
        XCTAssertEqual(button.title(for: .disabled), "Open", "a state without its own title shows the normal one")
        XCTAssertEqual(button.currentTitleColor, button.tintColor)
        XCTAssertGreaterThan(button.intrinsicContentSize.width, 30)
    }

    func testAButtonDrawsItsTitle() throws {
        let stage = try makeStage(width: 100, height: 40)
        let button = UIButton(frame: CGRect(x: 0, y: 0, width: 100, height: 40))
        button.setTitle("GO", for: .normal)
        button.setTitleColor(.white, for: .normal)
        stage.window.addSubview(button)
        try stage.wait(0)
        let frame = try stage.bitmap(ofFrame: 0)
        var lit = 0
        for y in 0..<40 { for x in 0..<100 where frame.rgba(x, y)[0] > 128 { lit += 1 } }
        XCTAssertGreaterThan(lit, 20, "white title on the black screen")
        for y in 0..<40 { for x in Array(0..<25) + Array(75..<100) { XCTAssertLessThan(frame.rgba(x, y)[0], 10, "centred") } }
    }
}
