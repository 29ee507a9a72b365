import SmokescreenStage
import SmokescreenTesting
import XCTest

/// The samples in `Samples/`, each run on a stage and kept as golden frames (@1x, 10 fps).
final class SampleTests: XCTestCase {
    func testTheCardGridExpandsACard() throws {
        let device = Device(name: "small phone", size: CGSize(width: 180, height: 320), scale: 2,
                            safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 10, right: 0))
        let stage = try Stage(device: device, fps: 10, scale: 1)
        let grid = CardGridViewController()
        stage.show(grid)
        try stage.wait(0.1)
        var completed: Double?
        grid.expand(at: 3) { completed = stage.time }
        try stage.waitUntilIdle()
        XCTAssertEqual(completed, 0.7)
        XCTAssertEqual(grid.cards[3].frame, grid.view.bounds)
        XCTAssertEqual(stage.frameCount, 8, "t = 0, 0.1 … 0.7")
        XCTAssertEqual(stage.notDrawn, [])
        assertFrames(stage.frames(name: "card-grid"), matchGoldenNamed: "card-grid")
    }

    /// Runs the constraint sample: open the card and close it.
    static func runConstraintCard(on stage: Stage) throws -> ConstraintCardViewController {
        let screen = ConstraintCardViewController()
        stage.show(screen)
        try stage.wait(0.1)
        screen.expand()
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        screen.collapse()
        try stage.waitUntilIdle()
        return screen
    }

    func testTheConstraintCardExpandsByItsConstants() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let screen = try Self.runConstraintCard(on: stage)
        XCTAssertEqual(screen.card.frame, CGRect(x: 16, y: 80, width: 148, height: 170), "back where it started")
        XCTAssertFalse(screen.card.hasAmbiguousLayout)
        XCTAssertEqual(stage.warnings, [])
        assertFrames(stage.frames(name: "constraint-card"), matchGoldenNamed: "constraint-card")
    }

    /// Runs the flip sample: turn the card over and back.
    static func runCardFlip(on stage: Stage) throws -> CardFlipViewController {
        let screen = CardFlipViewController()
        stage.show(screen)
        try stage.wait(0.1)
        screen.flip()
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        screen.flip()
        try stage.waitUntilIdle()
        return screen
    }

    func testTheCardFlipsInPerspectiveAndBack() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let screen = try Self.runCardFlip(on: stage)
        XCTAssertFalse(screen.showsBack)
        XCTAssertEqual(stage.notDrawn, [])
        XCTAssertEqual(stage.warnings, [])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: Self.samplePhone(), fps: 30, scale: 2)
            _ = try Self.runCardFlip(on: big)
            try big.write(to: look + "/card-flip")
        }
        assertFrames(stage.frames(name: "card-flip"), matchGoldenNamed: "card-flip")
    }

    /// Runs the reveal sample: grow the detail screen out of the button.
    static func runCircleReveal(on stage: Stage) throws -> (CircleRevealViewController, Double?) {
        let screen = CircleRevealViewController()
        stage.show(screen)
        try stage.wait(0.1)
        var completed: Double?
        screen.reveal { completed = stage.time }
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        return (screen, completed)
    }

    func testTheCircleRevealGrowsTheMaskFromTheButton() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let (screen, completed) = try Self.runCircleReveal(on: stage)
        XCTAssertEqual(try XCTUnwrap(completed), 0.6, accuracy: 1e-9, "the transaction completes with the animation")
        XCTAssertTrue(screen.detail.layer.mask === screen.circle)
        XCTAssertEqual(stage.notDrawn, [])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: Self.samplePhone(), fps: 30, scale: 2)
            _ = try Self.runCircleReveal(on: big)
            try big.write(to: look + "/circle-reveal")
        }
        assertFrames(stage.frames(name: "circle-reveal"), matchGoldenNamed: "circle-reveal")
    }

    /// Runs the download sample: fill the ring, tick it.
    static func runProgressRing(on stage: Stage) throws -> (ProgressRingViewController, Double?) {
        let screen = ProgressRingViewController()
        stage.show(screen)
        try stage.wait(0.1)
        var completed: Double?
        screen.download { completed = stage.time }
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        return (screen, completed)
    }

    func testTheProgressRingStrokesRoundThenTicks() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let (screen, completed) = try Self.runProgressRing(on: stage)
        XCTAssertEqual(try XCTUnwrap(completed), 0.95, accuracy: 1e-9, "the tick's transaction completes after the ring's")
        XCTAssertEqual(screen.progress.strokeEnd, 1)
        XCTAssertEqual(stage.notDrawn, [])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: Self.samplePhone(), fps: 30, scale: 2)
            _ = try Self.runProgressRing(on: big)
            try big.write(to: look + "/progress-ring")
        }
        assertFrames(stage.frames(name: "progress-ring"), matchGoldenNamed: "progress-ring")
    }

    /// Runs the bar sample: the list scrolls up under the material bar.
    static func runBlurredBar(on stage: Stage) throws -> (BlurredBarViewController, Double?) {
        let screen = BlurredBarViewController()
        stage.show(screen)
        try stage.wait(0.1)
        var completed: Double?
        screen.scroll { _ in completed = stage.time }
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        return (screen, completed)
    }

    func testTheListScrollsUnderABlurredBar() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let (_, completed) = try Self.runBlurredBar(on: stage)
        XCTAssertEqual(try XCTUnwrap(completed), 0.7, accuracy: 1e-9)
        XCTAssertEqual(stage.notDrawn, [])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: Self.samplePhone(), fps: 30, scale: 2)
            _ = try Self.runBlurredBar(on: big)
            try big.write(to: look + "/blurred-bar")
        }
        assertFrames(stage.frames(name: "blurred-bar"), matchGoldenNamed: "blurred-bar")
    }

    /// The small phone the samples run on, at `scale` (the goldens are @1x; @2x is for looking).
    static func samplePhone() -> Device {
        Device(name: "small phone", size: CGSize(width: 180, height: 320), scale: 2,
               safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 10, right: 0))
    }

    /// Runs the zoom sample: open tile 4 and come back.
    static func runZoom(on stage: Stage) throws -> (grid: TileGridViewController, navigation: UINavigationController) {
        let grid = TileGridViewController()
        let navigation = UINavigationController(rootViewController: grid)
        stage.show(navigation)
        try stage.wait(0.1)
        grid.open(at: 4)
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        navigation.popViewController(animated: true)
        try stage.waitUntilIdle()
        return (grid, navigation)
    }

    func testTheZoomSampleOpensATileAndComesBack() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let (grid, navigation) = try Self.runZoom(on: stage)
        XCTAssertTrue(navigation.topViewController === grid)
        XCTAssertFalse(grid.tiles[4].isHidden)
        XCTAssertEqual(stage.warnings, [])
        XCTAssertEqual(stage.notDrawn, [])
        XCTAssertEqual(stage.frameCount, 13, "t = 0 … 1.2: two 0.5 s springs and the pauses before them")
        assertFrames(stage.frames(name: "tile-zoom"), matchGoldenNamed: "tile-zoom")
    }

    /// Runs the sheet sample: present the sheet, then dismiss it.
    static func runSheet(on stage: Stage) throws -> SheetHostViewController {
        let host = SheetHostViewController()
        stage.show(host)
        try stage.wait(0.1)
        host.showSheet()
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        host.dismiss(animated: true)
        try stage.waitUntilIdle()
        return host
    }

    func testTheSheetSamplePresentsOverADimmingViewAndDismisses() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let host = try Self.runSheet(on: stage)
        XCTAssertNil(host.presentedViewController)
        XCTAssertEqual(stage.window.subviews.count, 1)
        XCTAssertEqual(stage.warnings, [])
        XCTAssertEqual(stage.notDrawn, [])
        assertFrames(stage.frames(name: "bottom-sheet"), matchGoldenNamed: "bottom-sheet")
    }

    /// Runs the page sheet sample: present it at its medium detent, drag it up to the large one, then
    /// swipe it down and away.
    static func runPageSheet(on stage: Stage) throws -> NotesListViewController {
        let notes = NotesListViewController()
        stage.show(notes)
        try stage.wait(0.1)
        notes.compose()
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        let top = try XCTUnwrap(notes.presentedViewController?.view.frame.minY)
        try stage.pan(from: CGPoint(x: 90, y: top + 10), to: CGPoint(x: 90, y: 40), duration: 0.3)
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        try stage.pan(from: CGPoint(x: 90, y: 60), to: CGPoint(x: 90, y: 300), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 800))
        try stage.waitUntilIdle()
        return notes
    }

    func testThePageSheetSamplePresentsDragsAndIsSwipedAway() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let notes = try Self.runPageSheet(on: stage)
        XCTAssertNil(notes.presentedViewController, "swiped away")
        XCTAssertEqual(notes.view.transform, .identity)
        XCTAssertEqual(stage.window.subviews.count, 1, "the backdrop and the container gone")
        XCTAssertEqual(stage.warnings, [])
        XCTAssertEqual(stage.notDrawn, [])
        assertFrames(stage.frames(name: "page-sheet"), matchGoldenNamed: "page-sheet")
    }

    /// Runs the editable list sample: tap Edit, tap the green plus of "Add Item" (an item is inserted),
    /// tap Bread's red minus and the Delete confirmation it shows (Bread goes), drag Apples by its reorder
    /// control below Eggs, then tap Done.
    static func runEditableList(on stage: Stage) throws -> (list: ShoppingListViewController, navigation: UINavigationController) {
        let list = ShoppingListViewController(style: .plain)
        let navigation = UINavigationController(rootViewController: list)
        stage.show(navigation)
        try stage.wait(0.1)
        func tapBarButton(_ title: String) throws {
            let bar = navigation.navigationBar
            let button = try XCTUnwrap(bar.subviews.compactMap { $0 as? UIButton }.first { $0.currentTitle == title }, "no \(title) button")
            try stage.tap(at: bar.convert(CGPoint(x: button.frame.midX, y: button.frame.midY), to: nil))
        }
        try tapBarButton("Edit")
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        let addRow = try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: list.items.count, section: 0)))
        try stage.tap(at: addRow.convert(CGPoint(x: 25, y: addRow.bounds.midY), to: nil))
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        // Bread's red minus, then the Delete confirmation it shows.
        let bread = try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: 1, section: 0)))
        try stage.tap(at: bread.convert(CGPoint(x: 25, y: bread.bounds.midY), to: nil))
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        try stage.tap(at: bread.convert(CGPoint(x: bread.bounds.maxX + 20, y: bread.bounds.midY), to: nil))
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        // Apples dragged by its reorder control below Eggs.
        let apples = try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: 0, section: 0)))
        let grip = CGPoint(x: apples.bounds.maxX - 19, y: apples.bounds.midY)
        try stage.pan(from: apples.convert(grip, to: nil), to: apples.convert(CGPoint(x: grip.x, y: grip.y + 1.8 * apples.bounds.height), to: nil), duration: 0.8)
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        try tapBarButton("Done")
        try stage.waitUntilIdle()
        return (list, navigation)
    }

    func testTheEditableListShowsItsEditingControlsInsertsDeletesAndMovesItems() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let (list, _) = try Self.runEditableList(on: stage)
        XCTAssertEqual(list.items, ["Coffee", "Eggs", "Apples", "Milk"])
        XCTAssertFalse(list.isEditing)
        XCTAssertFalse(list.tableView.isEditing)
        XCTAssertEqual(list.editButtonItem.title, "Edit")
        XCTAssertEqual(list.tableView.visibleCells.map { $0.contentView.frame.minX }, [0, 0, 0, 0, 0], "the content back at the edge")
        XCTAssertEqual(stage.warnings, [])
        XCTAssertEqual(stage.notDrawn, [])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: Self.samplePhone(), fps: 30, scale: 2)
            _ = try Self.runEditableList(on: big)
            try big.write(to: look + "/editable-list")
        }
        assertFrames(stage.frames(name: "editable-list"), matchGoldenNamed: "editable-list")
    }

    /// Runs the swipe actions sample: swipe row 1 open and tap Flag, swipe row 3 right and tap Unread,
    /// then swipe row 2 all the way left (a full swipe deletes it).
    static func runSwipeActions(on stage: Stage) throws -> MailboxViewController {
        let mailbox = MailboxViewController(style: .plain)
        stage.show(UINavigationController(rootViewController: mailbox))
        try stage.wait(0.1)
        func cell(_ row: Int) throws -> UITableViewCell { try XCTUnwrap(mailbox.tableView.cellForRow(at: IndexPath(row: row, section: 0))) }
        func point(_ row: Int, x: CGFloat) throws -> CGPoint { let c = try cell(row); return c.convert(CGPoint(x: x, y: c.bounds.midY), to: nil) }
        let width = mailbox.tableView.bounds.width
        // Left past half the actions, released: it stays open; the inner action (Flag) is tapped.
        try stage.pan(from: point(1, x: 150), to: point(1, x: 60), duration: 0.3)
        try stage.waitUntilIdle()
        try stage.wait(0.2)
        let open = -(try cell(1)).frame.minX
        try stage.tap(at: point(1, x: width - open + 10 - (try cell(1)).frame.minX))
        try stage.waitUntilIdle()
        try stage.wait(0.2)
        // Right: Unread.
        try stage.pan(from: point(3, x: 20), to: point(3, x: 100), duration: 0.3)
        try stage.waitUntilIdle()
        try stage.wait(0.2)
        try stage.tap(at: point(3, x: -30))
        try stage.waitUntilIdle()
        try stage.wait(0.2)
        // All the way left: the first action (Delete) is performed.
        try stage.pan(from: point(2, x: 170), to: point(2, x: 20), duration: 0.3)
        try stage.waitUntilIdle()
        return mailbox
    }

    func testTheMailboxRowsSwipeToTheirActionsAndAFullSwipeDeletes() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let mailbox = try Self.runSwipeActions(on: stage)
        XCTAssertEqual(mailbox.subjects, ["Quarterly report", "Lunch on Friday?", "Team photos", "Flight changes"])
        XCTAssertEqual(mailbox.flagged, ["Lunch on Friday?"])
        XCTAssertEqual(mailbox.unread, ["Team photos"])
        XCTAssertEqual(mailbox.tableView.visibleCells.map(\.frame.minX), [0, 0, 0, 0], "every row back in place")
        XCTAssertEqual(stage.warnings, [])
        XCTAssertEqual(stage.notDrawn, [])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: Self.samplePhone(), fps: 30, scale: 2)
            _ = try Self.runSwipeActions(on: big)
            try big.write(to: look + "/swipe-actions")
        }
        assertFrames(stage.frames(name: "swipe-actions"), matchGoldenNamed: "swipe-actions")
    }

    /// Runs the inbox sample: open the second message, archive it, and watch the row go.
    static func runInbox(on stage: Stage) throws -> (inbox: InboxViewController, navigation: UINavigationController) {
        let inbox = InboxViewController(style: .plain)
        let navigation = UINavigationController(rootViewController: inbox)
        stage.show(navigation)
        try stage.wait(0.1)
        let cell = try XCTUnwrap(inbox.tableView.cellForRow(at: IndexPath(row: 1, section: 0)))
        try stage.tap(at: cell.convert(CGPoint(x: 60, y: cell.bounds.midY), to: stage.window))
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        try XCTUnwrap(navigation.topViewController as? MessageViewController).archive()
        try stage.waitUntilIdle()
        return (inbox, navigation)
    }

    func testTheInboxSampleArchivesAMessageAfterThePop() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let (inbox, navigation) = try Self.runInbox(on: stage)
        XCTAssertTrue(navigation.topViewController === inbox)
        XCTAssertEqual(inbox.messages.count, 5)
        XCTAssertEqual(inbox.tableView.numberOfRows(inSection: 0), 5)
        XCTAssertEqual(inbox.tableView.visibleCells.compactMap { ($0 as? InboxCell)?.sender.text }, ["Aiko", "Mei", "Kenji", "Sora", "Yuki"])
        XCTAssertNil(inbox.tableView.indexPathForSelectedRow)
        XCTAssertEqual(stage.warnings, [])
        XCTAssertEqual(stage.notDrawn, [])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: Self.samplePhone(), fps: 30, scale: 2)
            _ = try Self.runInbox(on: big)
            try big.write(to: look + "/inbox")
        }
        assertFrames(stage.frames(name: "inbox"), matchGoldenNamed: "inbox")
    }

    /// Runs the photo grid sample: open the fifth photo and come back.
    static func runPhotoGrid(on stage: Stage) throws -> (grid: PhotoGridViewController, navigation: UINavigationController) {
        let grid = PhotoGridViewController()
        let navigation = UINavigationController(rootViewController: grid)
        stage.show(navigation)
        try stage.wait(0.1)
        let cell = try XCTUnwrap(grid.collectionView.cellForItem(at: IndexPath(item: 4, section: 0)))
        try stage.tap(at: cell.convert(CGPoint(x: cell.bounds.midX, y: cell.bounds.midY), to: stage.window))
        try stage.waitUntilIdle()
        try stage.wait(0.1)
        navigation.popViewController(animated: true)
        try stage.waitUntilIdle()
        return (grid, navigation)
    }

    func testThePhotoGridZoomsAPhotoOutOfItsCellAndBack() throws {
        let stage = try Stage(device: Self.samplePhone(), fps: 10, scale: 1)
        let (grid, navigation) = try Self.runPhotoGrid(on: stage)
        XCTAssertTrue(navigation.topViewController === grid)
        XCTAssertEqual(grid.collectionView.indexPathsForSelectedItems, [], "deselected as the grid came back")
        XCTAssertFalse(grid.collectionView.visibleCells.contains { $0.isHidden })
        XCTAssertEqual(stage.warnings, [])
        XCTAssertEqual(stage.notDrawn, [])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: Self.samplePhone(), fps: 30, scale: 2)
            _ = try Self.runPhotoGrid(on: big)
            try big.write(to: look + "/photo-grid")
        }
        assertFrames(stage.frames(name: "photo-grid"), matchGoldenNamed: "photo-grid")
    }
}
