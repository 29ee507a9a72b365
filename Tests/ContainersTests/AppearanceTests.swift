import Containers
import Motion
import RasterCore
import SnapshotView
import Typesetting
import XCTest

/// The light and dark appearances of Containers' views: iOS's published system colours, given by a
/// table to its cells and titles and by a navigation controller to its bar and controllers, and the
/// bar's scroll-edge and standard appearances.
final class AppearanceTests: XCTestCase {
    /// iOS's published values (Human Interface Guidelines), exactly.
    func testThePalettesAreIOSsValues() {
        let dark = SystemPalette.dark, light = SystemPalette.light
        XCTAssertEqual(dark.background, Color(red8: 0, green8: 0, blue8: 0))
        XCTAssertEqual(dark.groupedCellBackground, Color(red8: 0x1C, green8: 0x1C, blue8: 0x1E))
        XCTAssertEqual(dark.label, Color(red8: 255, green8: 255, blue8: 255))
        XCTAssertEqual(dark.secondaryLabel, Color(red8: 0xEB, green8: 0xEB, blue8: 0xF5, alpha: 0.6))
        XCTAssertEqual(dark.separator, Color(red8: 0x54, green8: 0x54, blue8: 0x58, alpha: 0.6))
        XCTAssertEqual(dark.selectedCellBackground, Color(red8: 0x3A, green8: 0x3A, blue8: 0x3C))
        XCTAssertEqual(dark.tint, Color(red8: 0x0A, green8: 0x84, blue8: 0xFF))
        XCTAssertEqual(dark.statusBarStyle, .lightContent)
        // The light values are the opaque colours the tables were measured with against iOS's pictures.
        XCTAssertEqual(light.separator, TableViewMetrics.separator)
        XCTAssertEqual(light.secondaryLabel, Color(red8: 0x8A, green8: 0x8A, blue8: 0x8E))
        XCTAssertEqual(light.statusBarStyle, .darkContent)
        XCTAssertEqual(SystemPalette.of(.dark), dark)
    }

    /// A dark table: black behind plain rows, #1C1C1E behind grouped ones, white text, the dark separator,
    /// titles in the dark secondary label colour; pixels at @1x.
    func testADarkTableDrawsIOSsDarkColours() throws {
        let model = ListModel([["Alpha", "Bravo"], ["Charlie"]])
        model.headerTitles = ["First", "Second"]
        for style in [TableViewStyle.plain, .grouped] {
            let table = TableView(frame: Rect(x: 0, y: 0, width: 200, height: 200), style: style, appearance: .dark)
            table.dataSource = model
            table.delegate = model
            try table.reloadData()
            let cell = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 0, section: 0)))
            XCTAssertEqual(cell.appearance, .dark)
            XCTAssertEqual(cell.textLabel.style.color, .white)
            XCTAssertEqual(table.backgroundColor, style == .plain ? .black : .black)
            var canvas = try Bitmap(width: 200, height: 200, scale: 1)
            ViewRenderer.draw(try XCTUnwrap(table.renderNode()), into: &canvas)
            // Inside the first row, away from its text: the cell's background.
            let rowY = Int(cell.frame.midY), x = 190 - (style == .grouped ? 20 : 0)
            let expected = style == .plain ? PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255) : PremultipliedRGBA8(r: 0x1C, g: 0x1C, b: 0x1E, a: 255)
            XCTAssertEqual(canvas[x, rowY], expected, "\(style) row background")
            // The separator under row 0 (one pixel at the row's bottom, right of its 16-pt inset): #545458
            // at 60 % over the row's background.
            let sepY = Int(cell.frame.maxY) - 1
            let base = style == .plain ? 0.0 : 28.0
            XCTAssertEqual(Double(canvas[100, sepY].r), 0x54 * 0.6 + base * 0.4, accuracy: 1, "\(style) separator")
            // The text is white: some pixel of the row is (nearly) white.
            let row = (0..<200).map { canvas[$0, rowY] }
            XCTAssertTrue(row.contains { $0.r > 240 && $0.g > 240 }, "\(style) text")
        }
    }

    /// Changing a table's appearance recolours its cells, the ones waiting for reuse and its titles; a
    /// colour a data source gave a label after dequeuing stays.
    func testChangingTheAppearanceRecoloursWhatTheTableDrew() throws {
        let model = ListModel([names(3)])
        model.headerTitles = ["Header"]
        let table = try makeTable(model)
        let cell = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        XCTAssertEqual(cell.textLabel.style.color, .black)
        table.appearance = .dark
        XCTAssertEqual(cell.appearance, .dark)
        XCTAssertEqual(cell.textLabel.style.color, .white)
        XCTAssertEqual(table.backgroundColor, .black)
        let header = try XCTUnwrap(table.subviews.first { $0.name == "header 0" })
        XCTAssertEqual(header.backgroundColor, SystemPalette.dark.plainHeaderBackground)
        XCTAssertEqual((header.subviews.first as? Label)?.style.color, .white)
        // A colour a data source sets after dequeuing is kept: the cell took the appearance first.
        let red = Color(red8: 255, green8: 0, blue8: 0)
        let dequeued = table.dequeueReusableCell(withIdentifier: "row", for: IndexPath(row: 0, section: 0))
        dequeued.textLabel.style.color = red
        XCTAssertEqual(dequeued.textLabel.style.color, red)
        table.appearance = .light
        XCTAssertEqual(table.backgroundColor, .white)
        XCTAssertEqual(cell.textLabel.style.color, .black)
    }

    /// A navigation controller gives its appearance to its bar, its view and every controller it shows.
    func testANavigationControllerPassesItsAppearanceOn() throws {
        let engine = AnimationEngine(fps: 60)
        let list = TableViewController(engine: engine)
        let nav = NavigationController(rootViewController: list, engine: engine, appearance: .dark)
        XCTAssertEqual(nav.navigationBar.appearance, .dark)
        XCTAssertEqual(nav.view.backgroundColor, .black)
        XCTAssertEqual(list.appearance, .dark)
        XCTAssertEqual(list.tableView.appearance, .dark)
        let pushed = ViewController()
        nav.pushViewController(pushed, animated: false)
        XCTAssertEqual(pushed.appearance, .dark)
        XCTAssertEqual(pushed.view.backgroundColor, .black)
        // A controller whose view loaded in light takes the new system background.
        let loaded = ViewController()
        XCTAssertEqual(loaded.view.backgroundColor, .white)
        loaded.appearance = .dark
        XCTAssertEqual(loaded.view.backgroundColor, .black)
        // The back button's title is in the dark tint.
        XCTAssertEqual(nav.navigationBar.content?.backLabel?.style.color, SystemPalette.dark.tint)
        XCTAssertEqual(nav.navigationBar.content?.titleLabel.style.color, .white)
    }

    /// iOS 15's bar: nothing behind its items at the scroll edge; the chrome material and a hairline once
    /// the table under it has scrolled, back to nothing when it returns to the top.
    func testTheBarFollowsTheScrollEdgeOfItsTable() throws {
        let engine = AnimationEngine(fps: 60)
        let list = RowsController(engine: engine)
        let nav = NavigationController(rootViewController: list, engine: engine)
        _ = nav.view
        let bar = nav.navigationBar
        XCTAssertTrue(bar.isAtScrollEdge)
        XCTAssertEqual(bar.backdrop, .none)
        XCTAssertTrue(bar.hairline.isHidden)
        list.tableView.setContentOffset(Point(x: 0, y: 30), animated: false)
        XCTAssertFalse(bar.isAtScrollEdge)
        XCTAssertEqual(bar.backdrop, Backdrop.material(.chrome, dark: false))
        XCTAssertFalse(bar.hairline.isHidden)
        XCTAssertEqual(bar.hairline.backgroundColor, Color(white: 0, alpha: 0.3))
        // Pushing a view that does not scroll: the bar is at its edge again.
        nav.pushViewController(ViewController(), animated: false)
        XCTAssertTrue(bar.isAtScrollEdge)
        nav.popViewController(animated: false)
        XCTAssertFalse(bar.isAtScrollEdge, "back on the scrolled list")
        list.tableView.setContentOffset(Point(x: 0, y: 0), animated: false)
        XCTAssertTrue(bar.isAtScrollEdge)
        // Drawn: at the edge the bar's area shows the view behind (white); scrolled, the material over it.
        var canvas = try Bitmap(width: 375, height: 667, scale: 1)
        ViewRenderer.draw(try XCTUnwrap(nav.view.renderNode()), into: &canvas)
        XCTAssertEqual(canvas[5, 40], PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
    }
}

/// Thirty rows.
private final class RowsController: TableViewController {
    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 30 }
}

/// Dynamic Type in tables: rows grow with the body font above Large, text and titles take their styles'
/// sizes, and the navigation controller gives its text size to what it shows.
final class TableTextSizeTests: XCTestCase {
    func testRowsGrowWithTheBodyFontAboveLarge() throws {
        XCTAssertEqual(TableViewMetrics.rowHeight(at: .large), 44)
        XCTAssertEqual(TableViewMetrics.rowHeight(at: .extraSmall), 44, "never below UIKit's 44")
        XCTAssertEqual(TableViewMetrics.lineGrowth(.body, at: .large), 0)
        var previous = 44.0
        for size in Font.ContentSize.allCases where size > .large {
            let height = TableViewMetrics.rowHeight(at: size)
            XCTAssertGreaterThan(height, previous, "\(size)")
            XCTAssertEqual(height, height.rounded(), "whole points")
            previous = height
        }
        // The growth is the body font's line height: 53 pt at AX5 against 17 at Large, Inter's line height
        // being about 1.21 em.
        let growth = TableViewMetrics.lineGrowth(.body, at: .accessibilityExtraExtraExtraLarge)
        XCTAssertEqual(growth, (53 - 17) * 1.21, accuracy: 1)
    }

    func testCellsAndTitlesTakeTheTablesTextSize() throws {
        let model = ListModel([names(3), names(2, prefix: "s")])
        model.headerTitles = ["First", "Second"]
        let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 600), style: .grouped, textSize: .accessibilityLarge)
        table.register(style: .subtitle, forCellReuseIdentifier: "row")
        table.dataSource = model
        table.delegate = model
        try table.reloadData()
        XCTAssertEqual(table.rowHeight, TableViewMetrics.rowHeight(at: .accessibilityLarge))
        let cell = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        XCTAssertEqual(cell.textSize, .accessibilityLarge)
        XCTAssertEqual(cell.frame.height, table.rowHeight)
        XCTAssertEqual(cell.textLabel.style.font.pointSize, 33, "body at AX2")
        XCTAssertEqual(cell.detailTextLabel?.style.font.pointSize, 26, "caption 1 at AX2")
        // The subtitle's lines, each grown with its font, one under the other from the top (the row grows
        // with the body font only: a table-wide height, not a cell measured by its content).
        let text = cell.textLabel.frame, detail = try XCTUnwrap(cell.detailTextLabel?.frame)
        XCTAssertEqual(detail.minY, text.maxY)
        XCTAssertEqual(text.height, 22 + TableViewMetrics.lineGrowth(.body, at: .accessibilityLarge), accuracy: 1e-9)
        XCTAssertEqual(detail.height, 16 + TableViewMetrics.lineGrowth(.caption1, at: .accessibilityLarge), accuracy: 1e-9)
        let header = try XCTUnwrap(table.subviews.first { $0.name == "header 0" })
        XCTAssertEqual((header.subviews.first as? Label)?.style.font.pointSize, 27, "footnote at AX2")
        XCTAssertGreaterThan(table.automaticHeaderHeight(title: "First"), 38)
        // Back to Large: the cells' fonts and the row height follow (rows laid out keep theirs until a reload).
        table.textSize = .large
        XCTAssertEqual(table.rowHeight, 44)
        XCTAssertEqual(cell.textLabel.style.font.pointSize, 17)
        XCTAssertEqual(table.automaticHeaderHeight(title: "First"), 38)
    }

    func testANavigationControllerGivesItsTextSize() throws {
        let engine = AnimationEngine(fps: 60)
        let list = TableViewController(engine: engine)
        let nav = NavigationController(rootViewController: list, engine: engine, textSize: .extraExtraLarge)
        XCTAssertEqual(list.tableView.textSize, .extraExtraLarge)
        let pushed = ViewController()
        nav.pushViewController(pushed, animated: false)
        XCTAssertEqual(pushed.textSize, .extraExtraLarge)
        // The bar's title stays 17 pt, as UIKit's standard bar's.
        XCTAssertEqual(nav.navigationBar.content?.titleLabel.style.font.pointSize, 17)
    }
}

/// What a data source or a subclass gives a cell is kept when the table's traits reach it; controllers
/// made or loaded early take their navigation controller's traits, also when they change later.
final class AppearanceKeepsWhatWasSetTests: XCTestCase {
    final class RedCell: TableViewCell {
        required init(style: CellStyle = .default, reuseIdentifier: String?) {
            super.init(style: style, reuseIdentifier: reuseIdentifier)
            textLabel.style.color = Color(red8: 255, green8: 0, blue8: 0)
        }
    }

    final class Source: TableViewDataSource, TableViewDelegate {
        let red = Color(red8: 255, green8: 0, blue8: 0)
        func numberOfSections(in tableView: TableView) -> Int { 1 }
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 3 }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            switch indexPath.row {
            case 0:
                // Made here, not dequeued: red bold 20 pt.
                let cell = TableViewCell(reuseIdentifier: nil)
                cell.textLabel.style.color = red
                cell.textLabel.style.font = .boldSystem(size: 20)
                cell.textLabel.text = "Delete"
                return cell
            case 1: return tableView.dequeueReusableCell(withIdentifier: "red", for: indexPath)
            default: return tableView.dequeueReusableCell(withIdentifier: "plain", for: indexPath)
            }
        }
    }

    func testColoursAndFontsSetOnACellAreKept() throws {
        let source = Source()
        let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 400), appearance: .dark, textSize: .accessibilityLarge)
        table.register(RedCell.self, forCellReuseIdentifier: "red")
        table.dataSource = source
        table.delegate = source
        try table.reloadData()
        let made = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        XCTAssertEqual(made.appearance, .dark)
        XCTAssertEqual(made.textLabel.style.color, source.red)
        XCTAssertEqual(made.textLabel.style.font, .boldSystem(size: 20))
        XCTAssertEqual(try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 0))).textLabel.style.color, source.red, "a subclass's colour")
        let plain = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 2, section: 0)))
        XCTAssertEqual(plain.textLabel.style.color, .white)
        XCTAssertEqual(plain.textLabel.style.font.pointSize, 33)
        table.appearance = .light
        XCTAssertEqual(plain.textLabel.style.color, .black)
        XCTAssertEqual(made.textLabel.style.color, source.red)
    }

    func testControllersTakeTheTraitsWhenMadeEarlyOrChangedLater() throws {
        let engine = AnimationEngine(fps: 60)
        let list = TableViewController(engine: engine)
        _ = list.tableView  // touched before it is shown
        let nav = NavigationController(rootViewController: list, engine: engine, appearance: .dark, textSize: .accessibilityLarge)
        _ = nav.view
        XCTAssertEqual(list.tableView.appearance, .dark)
        XCTAssertEqual(list.tableView.textSize, .accessibilityLarge)
        // Changed after loading: the bar, its items, the list.
        nav.appearance = .light
        nav.textSize = .large
        XCTAssertEqual(nav.navigationBar.appearance, .light)
        XCTAssertEqual(nav.navigationBar.hairline.backgroundColor, Color(white: 0, alpha: 0.3))
        XCTAssertEqual(nav.view.backgroundColor, .white)
        XCTAssertEqual(list.tableView.appearance, .light)
        XCTAssertEqual(list.tableView.backgroundColor, .white)
        XCTAssertEqual(list.tableView.textSize, .large)
        XCTAssertEqual(nav.navigationBar.content?.titleLabel.style.color, .black)
    }
}
