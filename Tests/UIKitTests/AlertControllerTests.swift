import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// `UIAlertController`: alerts and action sheets laid out, presented and dismissed as iOS does, their
/// handlers run after a tapped action dismissed them.
final class AlertControllerTests: XCTestCase {
    final class Screen: UIViewController {
        override func viewDidLoad() {
            super.viewDidLoad()
            view.backgroundColor = .systemBackground
            let label = UILabel(frame: CGRect(x: 20, y: 80, width: 300, height: 30))
            label.text = "Inbox"
            label.font = .systemFont(ofSize: 28, weight: .bold)
            view.addSubview(label)
        }
    }

    func testAnAlertAppearsAndItsActionRunsAfterTheDismissal() throws {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 390, height: 844), scale: 1, safeAreaInsets: UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0)),
                              fps: 30, appearance: .light)
        let screen = Screen()
        stage.show(screen)
        let alert = UIAlertController(title: "Delete message?", message: "This message will be deleted from all your devices.", preferredStyle: .alert)
        var ran: [String] = []
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in ran.append("cancel") })
        alert.addAction(UIAlertAction(title: "Delete", style: .destructive) { action in
            ran.append("delete")
            XCTAssertNil(screen.presentedViewController, "the handler runs after the dismissal")
        })
        screen.present(alert, animated: true)
        try stage.waitUntilIdle()
        XCTAssertTrue(screen.presentedViewController === alert)
        let card = alert.cardView.frame
        XCTAssertEqual(card.width, 270)
        XCTAssertEqual(card.midX, 195)
        XCTAssertEqual(card.midY, 422, accuracy: 0.5, "centred")
        try IOSParityTests.keep(try stage.bitmap(ofFrame: stage.frameCount - 1), name: "alert.png")
        // Two buttons side by side, the cancel action on the left in semibold.
        let buttons = alert.cardView.subviews.compactMap { $0 as? AlertActionButton }
        XCTAssertEqual(buttons.map { $0.action.title }, ["Cancel", "Delete"])
        XCTAssertEqual(buttons[0].frame.minY, buttons[1].frame.minY)
        XCTAssertEqual(buttons[0].frame.height, 44)
        XCTAssertEqual(buttons[1].label.textColor, UIColor.systemRed.resolvedColor(with: UITraitCollection.current))
        // Part way in, the card is larger and fainter than at rest.
        let appearing = try stage.bitmap(ofFrame: 2)
        let rest = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertNotEqual(appearing[195, 300], rest[195, 300])
        // The dimming: the screen's white at 80 %.
        XCTAssertEqual(rest.rgba(10, 10), [204, 204, 204, 255])
        let before = stage.frameCount
        try stage.tap(at: CGPoint(x: card.maxX - 60, y: card.maxY - 20))
        try stage.waitUntilIdle()
        XCTAssertEqual(ran, ["delete"])
        XCTAssertNil(screen.presentedViewController)
        XCTAssertEqual(try stage.bitmap(ofFrame: stage.frameCount - 1).rgba(10, 10), [255, 255, 255, 255], "the dimming gone")
        XCTAssertGreaterThan(stage.frameCount - before, 5, "it fades out over frames")
    }

    func testAnActionSheetSlidesUpAndItsCancelRunsOnATapOutside() throws {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 390, height: 844), scale: 1, safeAreaInsets: UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0)),
                              fps: 30, appearance: .light)
        let screen = Screen()
        stage.show(screen)
        let sheet = UIAlertController(title: nil, message: "Share this photo", preferredStyle: .actionSheet)
        var ran: [String] = []
        for title in ["Message", "Mail"] { sheet.addAction(UIAlertAction(title: title, style: .default) { _ in ran.append(title) }) }
        sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in ran.append("Cancel") })
        sheet.addAction(UIAlertAction(title: "Second cancel", style: .cancel))
        XCTAssertEqual(sheet.actions.count, 3, "one cancel action only, as UIKit's")
        screen.present(sheet, animated: true)
        try stage.waitUntilIdle()
        let card = sheet.cardView.frame
        XCTAssertEqual(card.minX, 8)
        XCTAssertEqual(card.width, 374)
        XCTAssertEqual(card.maxY, 844 - 34, "on the safe area's bottom")
        let rows = sheet.cardView.subviews.compactMap { $0 as? AlertActionButton }
        XCTAssertEqual(rows.map { $0.frame.height }, [57, 57, 57])
        XCTAssertEqual(rows[2].frame.minY - rows[1].frame.maxY, 8, "the cancel group 8 points below")
        try IOSParityTests.keep(try stage.bitmap(ofFrame: stage.frameCount - 1), name: "action-sheet.png")
        // While sliding up, the sheet is lower than at rest.
        // Part way up, the sheet's top is not yet where it rests: the screen shows there, dimmed.
        let top = Int(card.minY) + 2
        let partWay = try stage.bitmap(ofFrame: 2), rest = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertNotEqual(partWay.rgba(195, top), rest.rgba(195, top))
        try stage.tap(at: CGPoint(x: 195, y: 200))
        try stage.waitUntilIdle()
        XCTAssertEqual(ran, ["Cancel"])
        XCTAssertNil(screen.presentedViewController)
    }

    func testAlertsTakeTextFieldsAndStackThreeButtons() throws {
        let alert = UIAlertController(title: "Sign in", message: nil, preferredStyle: .alert)
        alert.addTextField { $0.placeholder = "Name" }
        alert.addTextField { $0.isSecureTextEntry = true }
        for title in ["One", "Two", "Three"] { alert.addAction(UIAlertAction(title: title, style: .default)) }
        XCTAssertEqual(alert.textFields?.count, 2)
        XCTAssertEqual(alert.textFields?[1].isSecureTextEntry, true)
        let sheet = UIAlertController(title: nil, message: nil, preferredStyle: .actionSheet)
        sheet.addTextField()
        XCTAssertNil(sheet.textFields, "text fields are for alerts only")
        alert.view.frame = CGRect(x: 0, y: 0, width: 390, height: 844)
        alert.view.layoutIfNeeded()
        let buttons = alert.cardView.subviews.compactMap { $0 as? AlertActionButton }
        XCTAssertEqual(Set(buttons.map { $0.frame.minX }), [0], "stacked")
        XCTAssertEqual(buttons[1].frame.minY, buttons[0].frame.maxY)
    }
}

