import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// iOS 15's sheets: `present` of a plain controller (`.automatic`) or a `.pageSheet` slides a card up to
/// its detent; at the large detent the presenting view shrinks back over black; detents change on the
/// sheet's spring; the presenting controller stays on screen (no disappearance callbacks).
final class SheetPresentationTests: XCTestCase {
    final class Screen: UIViewController {
        var log: [String] = []
        override func viewDidLoad() {
            super.viewDidLoad()
            view.backgroundColor = .systemBackground
            let label = UILabel(frame: CGRect(x: 20, y: 80, width: 300, height: 30))
            label.text = "Inbox"
            label.font = .systemFont(ofSize: 28, weight: .bold)
            view.addSubview(label)
        }
        override func viewWillDisappear(_ animated: Bool) {
            super.viewWillDisappear(animated)
            log.append("viewWillDisappear")
        }
    }

    final class Compose: UIViewController {
        override func viewDidLoad() {
            super.viewDidLoad()
            view.backgroundColor = .secondarySystemBackground
            let label = UILabel(frame: CGRect(x: 20, y: 24, width: 300, height: 24))
            label.text = "New Message"
            label.font = .systemFont(ofSize: 17, weight: .semibold)
            view.addSubview(label)
        }
    }

    static let phone = Device(name: "phone", size: CGSize(width: 390, height: 844), scale: 1,
                              safeAreaInsets: UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0))

    func testAPlainPresentationIsAPageSheetAtTheLargeDetent() throws {
        let stage = try Stage(device: Self.phone, fps: 30, appearance: .light)
        let screen = Screen()
        stage.show(screen)
        let compose = Compose()
        XCTAssertEqual(compose.modalPresentationStyle, .automatic)
        let sheet = try XCTUnwrap(compose.sheetPresentationController)
        XCTAssertEqual(sheet.detents.map(\.identifier), [.large])
        XCTAssertNil(UIViewController().then { $0.modalPresentationStyle = .fullScreen }.sheetPresentationController)
        screen.present(compose, animated: true)
        try stage.waitUntilIdle()
        XCTAssertTrue(compose.presentationController === sheet)
        XCTAssertEqual(sheet.presentationStyle, .pageSheet)
        // The sheet from 10 points below the safe area's top to the bottom, its top corners rounded.
        XCTAssertEqual(compose.view.frame, CGRect(x: 0, y: 57, width: 390, height: 787))
        XCTAssertEqual(compose.view.layer.cornerRadius, 10)
        XCTAssertEqual(compose.view.layer.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMinYCorner])
        // The presenting view stays, shrunk about its centre so its top meets the safe area's.
        XCTAssertNotNil(screen.view.window)
        let scale = 1 - 2 * 47 / 844.0
        XCTAssertEqual(screen.view.transform.a, scale, accuracy: 1e-9)
        XCTAssertEqual(screen.view.frame.minY, 47, accuracy: 1e-9)
        XCTAssertEqual(screen.log, [], "no disappearance: the presenting view stays on screen")
        // Drawn: black beside the shrunk view, the view dimmed (white under black at 30 %: 179), the sheet.
        let rest = try stage.bitmap(ofFrame: stage.frameCount - 1)
        try IOSParityTests.keep(rest, name: "sheet-large.png")
        XCTAssertEqual(rest.rgba(195, 20), [0, 0, 0, 255], "black above the shrunk presenting view")
        XCTAssertEqual(rest.rgba(2, 52), [0, 0, 0, 255], "and beside it")
        XCTAssertEqual(rest.rgba(195, 52), [178, 178, 178, 255], "the presenting view, dimmed (white under black at 30 %), above the sheet")
        XCTAssertEqual(rest.rgba(195, 500), [242, 242, 247, 255], "the sheet's background")
        // Part way, the sheet is lower and the presenting view less shrunk.
        let middle = try stage.bitmap(ofFrame: 3)
        XCTAssertNotEqual(middle.rgba(195, 200), rest.rgba(195, 200))
        // Dismissed: everything as it was.
        screen.dismiss(animated: true)
        try stage.waitUntilIdle()
        XCTAssertNil(screen.presentedViewController)
        XCTAssertEqual(screen.view.transform, .identity)
        XCTAssertEqual(screen.view.layer.cornerRadius, 0)
        XCTAssertEqual(try stage.bitmap(ofFrame: stage.frameCount - 1).rgba(195, 20), [255, 255, 255, 255], "the black backdrop gone")
    }

    /// A sheet presenting another: the first moves back into the place the screen has behind it (the
    /// same scale, its top at the safe area's top), so it is the card above the top sheet and hides the
    /// screen; dragging the top sheet down brings it part of the way back; the second dismissed, the first
    /// is a sheet at its detent again.
    func testASheetOverASheetTakesTheScreensPlace() throws {
        let stage = try Stage(device: Self.phone, fps: 30, appearance: .light)
        let screen = Screen()
        stage.show(screen)
        let first = Compose()
        first.view.backgroundColor = .systemBlue
        screen.present(first, animated: true)
        try stage.waitUntilIdle()
        let second = Compose()
        second.view.backgroundColor = .systemPink
        first.present(second, animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(second.view.frame, CGRect(x: 0, y: 57, width: 390, height: 787))
        let scale = 1 - 2 * 47 / 844.0
        XCTAssertEqual(first.view.transform.a, scale, accuracy: 1e-9)
        XCTAssertEqual(first.view.frame.minY, 47, accuracy: 1e-9, "the first sheet's top where the screen's was")
        XCTAssertEqual(first.view.frame.width, screen.view.frame.width, accuracy: 1e-9)
        XCTAssertEqual(screen.view.frame.minY, 47, accuracy: 1e-9, "the screen stays where it was, behind the first sheet")
        XCTAssertEqual(first.view.layer.cornerRadius, 10)
        let stacked = try stage.bitmap(ofFrame: stage.frameCount - 1)
        let blue = stacked.rgba(195, 52)
        XCTAssertGreaterThan(blue[2], blue[0], "the first sheet (blue, dimmed) shows above the second, not the screen")
        XCTAssertEqual(stacked.rgba(195, 20), [0, 0, 0, 255], "black above it")

        // The second dragged down half way: the first is part of the way back.
        try stage.touchDown(at: CGPoint(x: 195, y: 100))
        try stage.moveTouch(to: CGPoint(x: 195, y: 300), duration: 0.3)
        // (Past the smallest detent the drag is an interactive dismissal: the first's model is already
        // back, its presentation part of the way.)
        let shown = try XCTUnwrap(first.view.layer.presentation()).affineTransform()
        XCTAssertGreaterThan(shown.a, scale + 0.01)
        XCTAssertLessThan(shown.a, 0.99)
        XCTAssertLessThan(shown.ty, 0, "on its way up")
        stage.liftTouch()
        try stage.waitUntilIdle()

        second.dismiss(animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(first.view.transform, .identity)
        XCTAssertEqual(first.view.frame, CGRect(x: 0, y: 57, width: 390, height: 787))
        XCTAssertEqual(screen.view.frame.minY, 47, accuracy: 1e-9, "the screen still shrunk behind the first")
    }

    /// A sheet resting at its medium detent that presents a large one shrinks where it is (nothing moves
    /// up into a place the screen has not left), and a sheet's own corner radius is kept while it is behind.
    func testASheetAtASmallerDetentShrinksWhereItIs() throws {
        let stage = try Stage(device: Self.phone, fps: 30, appearance: .light)
        let screen = Screen()
        stage.show(screen)
        let first = Compose()
        first.sheetPresentationController?.detents = [.medium()]
        first.sheetPresentationController?.preferredCornerRadius = 20
        screen.present(first, animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(screen.view.transform, .identity, "a medium sheet leaves the screen as it is")
        let second = Compose()
        first.present(second, animated: true)
        try stage.waitUntilIdle()
        XCTAssertLessThan(first.view.transform.a, 1, "shrunk behind the large sheet")
        XCTAssertEqual(first.view.transform.ty, 0, "where it is")
        XCTAssertEqual(first.view.layer.cornerRadius, 20, "its own corners")
        second.dismiss(animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(first.view.transform, .identity)
        XCTAssertEqual(first.view.layer.cornerRadius, 20)
    }

    /// Configuring the sheet before presenting does not load the controller's view (UIKit loads it when
    /// presenting).
    func testConfiguringTheSheetDoesNotLoadTheView() throws {
        let compose = Compose()
        let sheet = try XCTUnwrap(compose.sheetPresentationController)
        sheet.prefersGrabberVisible = true
        sheet.prefersEdgeAttachedInCompactHeight = true
        sheet.preferredCornerRadius = 16
        sheet.widthFollowsPreferredContentSizeWhenEdgeAttached = true
        compose.preferredContentSize = CGSize(width: 300, height: 0)
        XCTAssertFalse(compose.isViewLoaded)
    }

    func testDetentsGrabberAndTheirChanges() throws {
        let stage = try Stage(device: Self.phone, fps: 30, appearance: .dark)
        let screen = Screen()
        stage.show(screen)
        let compose = Compose()
        compose.modalPresentationStyle = .pageSheet
        let sheet = try XCTUnwrap(compose.sheetPresentationController)
        sheet.detents = [.medium(), .large()]
        sheet.prefersGrabberVisible = true
        screen.present(compose, animated: true)
        try stage.waitUntilIdle()
        // The smallest detent: half the large one's height; the presenting view not shrunk, but dimmed.
        XCTAssertEqual(compose.view.frame.height, (787.0 / 2).rounded())
        XCTAssertEqual(compose.view.frame.maxY, 844)
        XCTAssertEqual(screen.view.transform, .identity)
        let grabber = try XCTUnwrap(compose.view.subviews.last)
        XCTAssertEqual(grabber.frame, CGRect(x: 177, y: 5, width: 36, height: 5))
        XCTAssertFalse(grabber.isHidden)
        let medium = try stage.bitmap(ofFrame: stage.frameCount - 1)
        try IOSParityTests.keep(medium, name: "sheet-medium-dark.png")
        // Changed inside animateChanges: the sheet moves over frames to the large detent, and the
        // presenting view shrinks back.
        let before = stage.frameCount
        final class Listener: NSObject, UISheetPresentationControllerDelegate { var changes = 0
            func sheetPresentationControllerDidChangeSelectedDetentIdentifier(_ s: UISheetPresentationController) { changes += 1 } }
        let listener = Listener()
        sheet.delegate = listener
        sheet.animateChanges { sheet.selectedDetentIdentifier = .large }
        try stage.waitUntilIdle()
        XCTAssertGreaterThan(stage.frameCount - before, 5, "it moves over frames")
        XCTAssertEqual(compose.view.frame.minY, 57)
        XCTAssertLessThan(screen.view.transform.a, 1)
        XCTAssertEqual(listener.changes, 0, "told of the user's changes only, not the app's")
        // A larger detent left undimmed: no dimming and no shrinking at the medium detent.
        sheet.largestUndimmedDetentIdentifier = .medium
        sheet.selectedDetentIdentifier = .medium
        XCTAssertEqual(screen.view.transform, .identity)
        try stage.wait(0.1)
        let undimmed = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertEqual(undimmed.rgba(195, 200), [0, 0, 0, 255], "the dark screen's background, not dimmed")
    }

    func testAFullScreenPresentationIsUnchangedAndCustomDetentsResolve() throws {
        let stage = try Stage(device: Self.phone, fps: 30, appearance: .light)
        let screen = Screen()
        stage.show(screen)
        let compose = Compose()
        let sheet = try XCTUnwrap(compose.sheetPresentationController)
        sheet.detents = [.custom(identifier: .init("small")) { _ in 200 }, .custom { context in context.maximumDetentValue * 2 }]
        screen.present(compose, animated: false)
        XCTAssertEqual(compose.view.frame, CGRect(x: 0, y: 644, width: 390, height: 200), "the smallest detent")
        sheet.selectedDetentIdentifier = sheet.detents[1].identifier
        XCTAssertEqual(compose.view.frame.minY, 57, "a resolver's value is at most the large detent's")
        screen.dismiss(animated: false)
        let full = Compose()
        full.modalPresentationStyle = .fullScreen
        screen.present(full, animated: false)
        XCTAssertEqual(full.view.frame, CGRect(x: 0, y: 0, width: 390, height: 844))
        XCTAssertNil(screen.view.window, "a full-screen presentation takes the presenting view off the screen")
    }

    func testThePresentationControllerBeforePresentingIsTheSheetAndIsLeftAsItWas() throws {
        let stage = try Stage(device: Self.phone, fps: 30, appearance: .light)
        let screen = Screen()
        stage.show(screen)
        let compose = Compose()
        let sheet = try XCTUnwrap(compose.sheetPresentationController)
        XCTAssertTrue(compose.presentationController === sheet, "as UIKit's: the one it will be presented in")
        let navigation = UINavigationController(rootViewController: compose)
        XCTAssertTrue(compose.sheetPresentationController === navigation.sheetPresentationController, "a child asks its container's")
        let plain = Compose()
        _ = plain.view
        plain.view.layer.cornerRadius = 3
        screen.present(plain, animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(plain.view.layer.cornerRadius, 10)
        screen.dismiss(animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(plain.view.layer.cornerRadius, 3, "the presented view's own corners back")
        XCTAssertFalse(plain.view.clipsToBounds)
        XCTAssertEqual(screen.view.clipsToBounds, false)
        XCTAssertEqual(stage.window.subviews.count, 1, "no backdrop left")
    }

    func testTouchesPassThroughAboveAnUndimmedSheet() throws {
        let stage = try Stage(device: Self.phone, fps: 30, appearance: .light)
        let screen = Screen()
        stage.show(screen)
        var taps = 0
        let button = UIButton(type: .system)
        button.frame = CGRect(x: 20, y: 150, width: 120, height: 44)
        button.setTitle("Tap", for: .normal)
        button.addAction(UIAction { _ in taps += 1 }, for: .touchUpInside)
        screen.view.addSubview(button)
        let compose = Compose()
        let sheet = try XCTUnwrap(compose.sheetPresentationController)
        sheet.detents = [.medium()]
        sheet.largestUndimmedDetentIdentifier = .medium
        screen.present(compose, animated: false)
        try stage.tap(at: CGPoint(x: 60, y: 172))
        try stage.waitUntilIdle()
        XCTAssertEqual(taps, 1, "the button behind an undimmed sheet takes the tap")
        sheet.largestUndimmedDetentIdentifier = nil
        try stage.tap(at: CGPoint(x: 60, y: 172))
        try stage.waitUntilIdle()
        XCTAssertEqual(taps, 1, "a dimmed sheet keeps the touches")
        // Undimmed again, but what it shows is modal in presentation: touches outside it stop there.
        sheet.largestUndimmedDetentIdentifier = .medium
        compose.isModalInPresentation = true
        try stage.tap(at: CGPoint(x: 60, y: 172))
        try stage.waitUntilIdle()
        XCTAssertEqual(taps, 1, "a modal sheet keeps the touches outside it")
    }
}

/// Dragging a sheet: between detents, into a swipe-down dismissal (finished or cancelled), and against
/// `isModalInPresentation`.
final class SheetDragTests: XCTestCase {
    final class Delegate: NSObject, UISheetPresentationControllerDelegate {
        var log: [String] = []
        func presentationControllerShouldDismiss(_ c: UIPresentationController) -> Bool { log.append("should"); return true }
        func presentationControllerWillDismiss(_ c: UIPresentationController) { log.append("will") }
        func presentationControllerDidDismiss(_ c: UIPresentationController) { log.append("did") }
        func presentationControllerDidAttemptToDismiss(_ c: UIPresentationController) { log.append("attempt") }
        func sheetPresentationControllerDidChangeSelectedDetentIdentifier(_ s: UISheetPresentationController) { log.append("detent") }
    }

    /// Sixty rows, "Row 0"…: a table to scroll in a sheet.
    final class Rows: UITableViewController {
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 60 }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = "Row \(indexPath.row)"
            return cell
        }
    }

    /// ``Rows`` presented as a sheet with the medium and large detents, at `detent`, on a stage at `scale`.
    func presentRows(scale: CGFloat? = nil, at detent: UISheetPresentationController.Detent.Identifier = .medium,
                     delegate: Delegate? = nil) throws -> (Stage, SheetPresentationTests.Screen, Rows, UISheetPresentationController) {
        let stage = try Stage(device: SheetPresentationTests.phone, fps: 30, scale: scale, appearance: .light)
        let screen = SheetPresentationTests.Screen()
        stage.show(screen)
        let list = Rows(style: .plain)
        let sheet = try XCTUnwrap(list.sheetPresentationController)
        sheet.detents = [.medium(), .large()]
        sheet.selectedDetentIdentifier = detent
        sheet.delegate = delegate
        screen.present(list, animated: true)
        try stage.waitUntilIdle()
        return (stage, screen, list, sheet)
    }

    func present(detents: [UISheetPresentationController.Detent], modal: Bool = false) throws
        -> (Stage, SheetPresentationTests.Screen, SheetPresentationTests.Compose, Delegate) {
        let stage = try Stage(device: SheetPresentationTests.phone, fps: 30, appearance: .light)
        let screen = SheetPresentationTests.Screen()
        stage.show(screen)
        let compose = SheetPresentationTests.Compose()
        compose.isModalInPresentation = modal
        let sheet = try XCTUnwrap(compose.sheetPresentationController)
        sheet.detents = detents
        let delegate = Delegate()
        sheet.delegate = delegate
        screen.present(compose, animated: true)
        try stage.waitUntilIdle()
        return (stage, screen, compose, delegate)
    }

    /// A table in a sheet: up at the medium detent grows the sheet, up at the large one scrolls the
    /// table, down with the table at its top drags the sheet down.
    func testAScrollViewInTheSheetHandsItsPanToTheSheetAtItsEdge() throws {
        let (stage, _, list, sheet) = try presentRows()
        let mediumTop = list.view.frame.minY
        XCTAssertEqual(mediumTop, 844 - (787.0 / 2).rounded())
        // Up at the medium detent: the sheet grows to the large one; the table does not scroll.
        try stage.pan(from: CGPoint(x: 195, y: mediumTop + 200), to: CGPoint(x: 195, y: mediumTop - 100), duration: 0.3,
                      releaseVelocity: CGVector(dx: 0, dy: -600))
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.selectedDetentIdentifier, .large)
        XCTAssertEqual(list.view.frame.minY, 57)
        XCTAssertEqual(list.tableView.contentOffset.y, 0)
        // Up at the large detent: the table scrolls.
        try stage.pan(from: CGPoint(x: 195, y: 600), to: CGPoint(x: 195, y: 400), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(list.tableView.contentOffset.y, 200, accuracy: 1e-6)
        XCTAssertEqual(list.view.frame.minY, 57, "the sheet stays")
        // Down while the table is scrolled: it scrolls back to its top, the sheet stays.
        try stage.pan(from: CGPoint(x: 195, y: 300), to: CGPoint(x: 195, y: 500), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(list.tableView.contentOffset.y, 0, accuracy: 1e-6)
        XCTAssertEqual(list.view.frame.minY, 57)
        // Down with the table at its top: the sheet is dragged down, to the medium detent.
        try stage.pan(from: CGPoint(x: 195, y: 300), to: CGPoint(x: 195, y: 650), duration: 0.4, releaseVelocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.selectedDetentIdentifier, .medium)
        XCTAssertEqual(list.view.frame.minY, mediumTop)
        XCTAssertEqual(list.tableView.contentOffset.y, 0)
    }

    /// One pan down on a scrolled table in a sheet: the table scrolls back to its top, then the sheet
    /// follows the finger from there (the table staying at its top); back up past that point, the sheet
    /// is back and the table scrolls again; released low enough, the sheet settles at the medium detent,
    /// and a second pan carried on down dismisses it.
    func testAScrolledTableHandsThePanToTheSheetOnceItReachesItsTop() throws {
        try handOverMidPan(scale: 1)
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            try handOverMidPan(scale: 2).write(to: look + "/sheet-mid-pan-handover")
        }
    }

    @discardableResult
    private func handOverMidPan(scale: CGFloat) throws -> Stage {
        let delegate = Delegate()
        let (stage, screen, list, sheet) = try presentRows(scale: scale, at: .large, delegate: delegate)
        XCTAssertEqual(list.view.frame.minY, 57)
        try stage.pan(from: CGPoint(x: 195, y: 600), to: CGPoint(x: 195, y: 400), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(list.tableView.contentOffset.y, 200, accuracy: 1e-6)
        let shrunk = screen.view.transform.a
        XCTAssertLessThan(shrunk, 1)
        // Down by 450: 200 scroll the table back to its top, the other 250 drag the sheet.
        try stage.touchDown(at: CGPoint(x: 195, y: 300))
        try stage.moveTouch(to: CGPoint(x: 195, y: 750), duration: 0.5)
        XCTAssertEqual(list.tableView.contentOffset.y, 0, accuracy: 1e-6, "the table stays at its top")
        XCTAssertEqual(list.view.frame.minY, 57 + 250, accuracy: 1e-6, "the sheet follows the finger from where the table reached its top")
        XCTAssertGreaterThan(screen.view.transform.a, shrunk, "what is behind grows back with the sheet")
        // Back up past that point: the sheet is back at its detent and the table scrolls again.
        try stage.moveTouch(to: CGPoint(x: 195, y: 450), duration: 0.3)
        XCTAssertEqual(list.view.frame.minY, 57, accuracy: 1e-6)
        XCTAssertEqual(list.tableView.contentOffset.y, 50, accuracy: 1e-6)
        // Down again and let go 300 below that point, at rest: the nearest detent is the medium one.
        try stage.moveTouch(to: CGPoint(x: 195, y: 800), duration: 0.3)
        try stage.wait(0.2)
        stage.liftTouch(velocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.selectedDetentIdentifier, .medium)
        XCTAssertEqual(list.view.frame.minY, 844 - (787.0 / 2).rounded())
        XCTAssertEqual(list.tableView.contentOffset.y, 0, accuracy: 1e-6)
        XCTAssertEqual(delegate.log, ["detent"])
        XCTAssertNotNil(screen.presentedViewController)
        // With the table at its top, a pan down is the sheet's from the start; carried on down, it dismisses.
        try stage.pan(from: CGPoint(x: 195, y: 500), to: CGPoint(x: 195, y: 840), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 800))
        try stage.waitUntilIdle()
        XCTAssertNil(screen.presentedViewController, "dismissed")
        XCTAssertEqual(delegate.log, ["detent", "should", "will", "did"])
        XCTAssertEqual(stage.warnings, [])
        return stage
    }

    /// A pan handed to the sheet that comes back above the point where the content reached its top and
    /// is flicked up: the content scrolls on, the sheet stays at its detent.
    func testAFlickUpAfterTheHandOverIsTheContents() throws {
        let (stage, _, list, sheet) = try presentRows(at: .large)
        try stage.pan(from: CGPoint(x: 195, y: 600), to: CGPoint(x: 195, y: 500), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(list.tableView.contentOffset.y, 100, accuracy: 1e-6)
        // Down 160 (100 scroll back, 60 drag the sheet), then up 280 and a flick up.
        try stage.touchDown(at: CGPoint(x: 195, y: 300))
        try stage.moveTouch(to: CGPoint(x: 195, y: 460), duration: 0.3)
        XCTAssertEqual(list.view.frame.minY, 57 + 60, accuracy: 1e-6)
        try stage.moveTouch(to: CGPoint(x: 195, y: 180), duration: 0.3)
        stage.liftTouch(velocity: CGVector(dx: 0, dy: -1500))
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.selectedDetentIdentifier, .large)
        XCTAssertEqual(list.view.frame.minY, 57, "the sheet stays")
        XCTAssertGreaterThan(list.tableView.contentOffset.y, 120, "the content decelerates on")
    }

    func testASwipeDownPastHalfWayDismisses() throws {
        let (stage, screen, compose, delegate) = try present(detents: [.large()])
        XCTAssertEqual(compose.view.frame.minY, 57)
        // Under the finger: 200 points down, the sheet's top 200 points lower.
        try stage.touchDown(at: CGPoint(x: 195, y: 300))
        try stage.moveTouch(to: CGPoint(x: 195, y: 500), duration: 0.3)
        XCTAssertEqual(compose.view.shownFrame.minY, 257, accuracy: 2, "the sheet follows the finger")
        try stage.moveTouch(to: CGPoint(x: 195, y: 800), duration: 0.2)
        stage.liftTouch()
        try stage.waitUntilIdle()
        XCTAssertNil(screen.presentedViewController)
        XCTAssertEqual(delegate.log, ["should", "will", "did"])
        XCTAssertEqual(screen.view.transform, .identity)
    }

    func testACancelledSwipeFromTheLargeDetentGoesBackToIt() throws {
        let (stage, screen, compose, _) = try present(detents: [.medium(), .large()])
        let sheet = try XCTUnwrap(compose.sheetPresentationController)
        sheet.animateChanges { sheet.selectedDetentIdentifier = .large }
        try stage.waitUntilIdle()
        // Down past the medium detent, then back up a little and let go slowly: the dismissal cancels.
        try stage.pan(along: [CGPoint(x: 195, y: 100), CGPoint(x: 195, y: 560), CGPoint(x: 195, y: 520)], duration: 0.8, releaseVelocity: CGVector(dx: 0, dy: -50))
        try stage.waitUntilIdle()
        XCTAssertTrue(screen.presentedViewController === compose)
        XCTAssertEqual(compose.view.frame.maxY, 844, "the whole sheet on screen")
        XCTAssertEqual(compose.view.frame.minY, 844 - (787.0 / 2).rounded(), "at the detent it was dismissed from")
    }

    func testARefusedSwipeIsAnAttempt() throws {
        let (stage, screen, compose, delegate) = try present(detents: [.large()])
        final class Refusing: NSObject, UIAdaptivePresentationControllerDelegate {
            var log: [String] = []
            func presentationControllerShouldDismiss(_ c: UIPresentationController) -> Bool { log.append("should"); return false }
            func presentationControllerDidAttemptToDismiss(_ c: UIPresentationController) { log.append("attempt") }
        }
        let refusing = Refusing()
        compose.presentationController?.delegate = refusing
        try stage.pan(from: CGPoint(x: 195, y: 300), to: CGPoint(x: 195, y: 800), duration: 0.4)
        try stage.waitUntilIdle()
        XCTAssertTrue(screen.presentedViewController === compose)
        XCTAssertEqual(refusing.log, ["should", "attempt"], "asked once a gesture")
        XCTAssertEqual(delegate.log, [])
    }

    func testAShortSwipeSpringsBackAndAModalSheetRefuses() throws {
        let (stage, screen, compose, delegate) = try present(detents: [.large()])
        try stage.pan(from: CGPoint(x: 195, y: 300), to: CGPoint(x: 195, y: 400), duration: 0.5)
        // Part way through the drag's dismissal the sheet follows the finger.
        try stage.waitUntilIdle()
        XCTAssertTrue(screen.presentedViewController === compose, "cancelled: a slow drag a quarter of the way")
        XCTAssertEqual(compose.view.frame.minY, 57)
        XCTAssertEqual(delegate.log, ["should", "will"])

        let (stage2, screen2, compose2, delegate2) = try present(detents: [.large()], modal: true)
        try stage2.pan(from: CGPoint(x: 195, y: 300), to: CGPoint(x: 195, y: 800), duration: 0.4)
        try stage2.waitUntilIdle()
        XCTAssertTrue(screen2.presentedViewController === compose2, "a modal sheet stays")
        XCTAssertEqual(compose2.view.frame.minY, 57, "and springs back")
        XCTAssertEqual(delegate2.log, ["attempt"])
    }

    /// `isModalInPresentation` set on the top of a presented navigation controller (Apple's sample for
    /// sheets does this) keeps the sheet from a swipe down; once another controller is pushed over it
    /// (its view off screen), it no longer counts.
    func testAModalChildInAPresentedNavigationControllerRefusesTheSwipe() throws {
        let stage = try Stage(device: SheetPresentationTests.phone, fps: 30, appearance: .light)
        let screen = SheetPresentationTests.Screen()
        stage.show(screen)
        let edit = SheetPresentationTests.Compose()
        edit.isModalInPresentation = true
        let navigation = UINavigationController(rootViewController: edit)
        let delegate = Delegate()
        navigation.presentationController?.delegate = delegate
        screen.present(navigation, animated: true)
        try stage.waitUntilIdle()
        try stage.pan(from: CGPoint(x: 195, y: 300), to: CGPoint(x: 195, y: 800), duration: 0.4)
        try stage.waitUntilIdle()
        XCTAssertTrue(screen.presentedViewController === navigation, "the modal child keeps the sheet")
        XCTAssertEqual(delegate.log, ["attempt"])
        let next = UIViewController()
        next.view.backgroundColor = .systemBackground
        navigation.pushViewController(next, animated: false)
        try stage.wait(0.1)
        try stage.pan(from: CGPoint(x: 195, y: 300), to: CGPoint(x: 195, y: 800), duration: 0.4, releaseVelocity: CGVector(dx: 0, dy: 800))
        try stage.waitUntilIdle()
        XCTAssertNil(screen.presentedViewController, "pushed over, the modal child is off screen: dismissed")
        XCTAssertEqual(delegate.log, ["attempt", "should", "will", "did"])
    }

    func testADragMovesBetweenDetents() throws {
        let (stage, screen, compose, delegate) = try present(detents: [.medium(), .large()])
        let mediumTop = compose.view.frame.minY
        XCTAssertEqual(mediumTop, 844 - (787.0 / 2).rounded())
        try stage.pan(from: CGPoint(x: 195, y: mediumTop + 20), to: CGPoint(x: 195, y: 100), duration: 0.3)
        try stage.waitUntilIdle()
        XCTAssertEqual(compose.view.frame.minY, 57, "dragged up to the large detent")
        XCTAssertEqual(compose.sheetPresentationController?.selectedDetentIdentifier, .large)
        XCTAssertLessThan(screen.view.transform.a, 1)
        try stage.pan(from: CGPoint(x: 195, y: 100), to: CGPoint(x: 195, y: 420), duration: 0.4)
        try stage.waitUntilIdle()
        XCTAssertEqual(compose.view.frame.minY, mediumTop, "and down to the medium one")
        XCTAssertEqual(screen.view.transform, .identity)
        XCTAssertEqual(delegate.log, ["detent", "detent"])
    }
}

private extension UIViewController {
    func then(_ body: (UIViewController) -> Void) -> UIViewController {
        body(self)
        return self
    }
}
