import SmokescreenStage
import XCTest

/// `UITableView`, `UITableViewCell` and `UITableViewController` with UIKit's names: loading, reuse,
/// self-sizing rows, batch updates, selection by touch, and the controller's deselection alongside a pop.
final class TableViewTests: XCTestCase {
    /// A data source of `counts[s]` rows per section, titled "s.r"; rows `tall` get three lines.
    final class Rows: NSObject, UITableViewDataSource, UITableViewDelegate {
        var counts: [Int]
        var tall: Set<IndexPath> = []
        var made = 0
        var selected: [IndexPath] = []
        var fixedHeight: CGFloat?
        var events: [String] = []

        init(_ counts: [Int]) { self.counts = counts }

        func numberOfSections(in tableView: UITableView) -> Int { counts.count }
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { counts[section] }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            made += 1
            cell.textLabel?.numberOfLines = 0
            cell.textLabel?.text = tall.contains(indexPath) ? "\(indexPath.section).\(indexPath.row)\nsecond\nthird" : "\(indexPath.section).\(indexPath.row)"
            return cell
        }
        func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { fixedHeight ?? UITableView.automaticDimension }
        func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath) }
        func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) { events.append("willDisplay \(indexPath.row)") }
    }

    private func makeTable(_ rows: Rows, on stage: Stage, style: UITableView.Style = .plain) -> UITableView {
        let table = UITableView(frame: stage.window.bounds, style: style)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.dataSource = rows
        table.delegate = rows
        stage.window.addSubview(table)
        table.layoutIfNeeded()
        return table
    }

    /// A plain table shorter than its bounds draws separators where more rows would be (as iOS does: see
    /// IOSParityTests); a footer view, a grouped table or no separators draw none.
    func testAPlainTableDrawsSeparatorsBelowItsLastRow() throws {
        func separatorRows(style: UITableView.Style = .plain, footer: Bool = false, separators: Bool = true, rowHeight: CGFloat? = nil) throws -> [Int] {
            let stage = try makeStage(width: 100, height: 200)
            let rows = Rows([2])
            rows.fixedHeight = rowHeight
            let table = makeTable(rows, on: stage, style: style)
            if let rowHeight { table.rowHeight = rowHeight }
            if footer { table.tableFooterView = UIView() }
            if !separators { table.separatorStyle = .none }
            stage.layOut()
            let bitmap = try XCTUnwrap(try stage.snapshot(of: table).bitmap)
            // Column 80: right of every label, inside the separators' 16-pt inset.
            return (0..<200).filter { bitmap.rgba(80, $0) != bitmap.rgba(80, 0) }
        }
        XCTAssertEqual(try separatorRows(), [43, 87, 131, 175], "two rows' separators, then two where rows would be")
        XCTAssertEqual(try separatorRows(rowHeight: 60), [59, 119, 179], "at the table's row height")
        XCTAssertEqual(try separatorRows(footer: true), [43, 87], "a footer view ends them")
        XCTAssertEqual(try separatorRows(separators: false), [])
        XCTAssertEqual(try separatorRows(style: .grouped).filter { $0 > 140 }, [], "none in a grouped table")
    }

    func testRowsLoadLazilyAndCellsAreReusedAsTheTableScrolls() throws {
        let stage = try makeStage(width: 120, height: 200)
        let rows = Rows([100])
        rows.fixedHeight = 40
        let table = makeTable(rows, on: stage)
        XCTAssertEqual(table.numberOfSections, 1)
        XCTAssertEqual(table.numberOfRows(inSection: 0), 100)
        XCTAssertEqual(table.contentSize, CGSize(width: 120, height: 4000))
        XCTAssertEqual(table.indexPathsForVisibleRows, (0..<5).map { IndexPath(row: $0, section: 0) }, "200 points of 40-point rows")
        XCTAssertEqual(rows.made, 5)
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 3, section: 0)), CGRect(x: 0, y: 120, width: 120, height: 40))
        XCTAssertEqual(table.indexPathForRow(at: CGPoint(x: 10, y: 130)), IndexPath(row: 3, section: 0))
        XCTAssertEqual(table.cellForRow(at: IndexPath(row: 2, section: 0))?.textLabel?.text, "0.2")
        XCTAssertNil(table.cellForRow(at: IndexPath(row: 50, section: 0)), "off screen: no cell")
        let first = table.cellForRow(at: IndexPath(row: 0, section: 0))
        table.contentOffset = CGPoint(x: 0, y: 1000)
        XCTAssertEqual(table.indexPathsForVisibleRows, (25..<30).map { IndexPath(row: $0, section: 0) })
        XCTAssertEqual(table.visibleCells.count, 5)
        XCTAssertTrue(table.visibleCells.contains { $0 === first }, "the cell that left was reused")
        XCTAssertEqual(first?.textLabel?.text.map { $0.hasPrefix("0.2") }, true)
        XCTAssertEqual(rows.made, 10, "five new rows asked for, five cells made or reused")
        XCTAssertEqual(table.indexPath(for: first!)?.section, 0)
    }

    func testSelfSizingRowsTakeTheirCellsHeights() throws {
        let stage = try makeStage(width: 200, height: 300)
        let rows = Rows([4])
        rows.tall = [IndexPath(row: 1, section: 0)]
        let table = makeTable(rows, on: stage)
        let short = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        let tall = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        XCTAssertEqual(short.frame.height, 44, "one line: UIKit's minimum for its own styles")
        // Three lines of 17-pt text, 11-pt margins, and the @1x separator's pixel.
        let text = try XCTUnwrap(tall.textLabel?.sizeThatFits(CGSize(width: 200 - 32, height: 0)).height)
        XCTAssertGreaterThan(text, 50)
        XCTAssertEqual(tall.frame.height, (text + 22).rounded(.up) + 1)
        XCTAssertEqual(tall.contentView.frame.height, tall.frame.height - 1, "the separator's pixel is under the content view")
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 2, section: 0)).minY, 44 + tall.frame.height)
    }

    /// A cell laid out by constraints sizes its row by them.
    final class ConstrainedCell: UITableViewCell {
        let box = UIView()

        required init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
            super.init(style: style, reuseIdentifier: reuseIdentifier)
            box.translatesAutoresizingMaskIntoConstraints = false
            contentView.addSubview(box)
            NSLayoutConstraint.activate([
                box.topAnchor.constraint(equalTo: contentView.topAnchor, constant: 8),
                box.bottomAnchor.constraint(equalTo: contentView.bottomAnchor, constant: -8),
                box.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 16),
                box.widthAnchor.constraint(equalToConstant: 30),
                box.heightAnchor.constraint(equalToConstant: 60),
            ])
        }

        required init?(coder: NSCoder) { nil }
    }

    final class Constrained: NSObject, UITableViewDataSource {
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 3 }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            tableView.dequeueReusableCell(withIdentifier: "box", for: indexPath)
        }
    }

    func testACellLaidOutByConstraintsSizesItsRow() throws {
        let stage = try makeStage(width: 120, height: 300)
        let table = UITableView(frame: stage.window.bounds, style: .plain)
        table.register(ConstrainedCell.self, forCellReuseIdentifier: "box")
        let source = Constrained()
        table.dataSource = source
        stage.window.addSubview(table)
        table.layoutIfNeeded()
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 1, section: 0)), CGRect(x: 0, y: 77, width: 120, height: 77),
                       "8 + 60 + 8 points, and the separator's pixel")
        let cell = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 0, section: 0)) as? ConstrainedCell)
        XCTAssertEqual(cell.box.frame, CGRect(x: 16, y: 8, width: 30, height: 60))
        XCTAssertEqual(stage.warnings, [])
    }

    func testAnInsertAnimatesTheRowsBelowDownAndFadesTheNewRowIn() throws {
        let stage = try makeStage(width: 100, height: 200)
        let rows = Rows([3])
        rows.fixedHeight = 40
        let table = makeTable(rows, on: stage)
        let below = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        var finished: Double?
        rows.counts = [4]
        table.performBatchUpdates({
            table.insertRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
        }, completion: { _ in finished = stage.time })
        let inserted = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        XCTAssertTrue(table.cellForRow(at: IndexPath(row: 2, section: 0)) === below, "the row that was 1 is now 2, same cell")
        XCTAssertEqual(below.frame.minY, 80, "the model is the end")
        try stage.wait(0.15)
        XCTAssertEqual(below.layer.presentation()!.frame.minY, 60, accuracy: 1e-9, "half way, ease in and out")
        XCTAssertEqual(Double(inserted.layer.presentation()!.opacity), 0.5, accuracy: 1e-6)
        try stage.waitUntilIdle()
        XCTAssertEqual(finished ?? 0, 0.3, accuracy: 1e-9, "UIKit's 0.3 s")
        XCTAssertEqual(table.contentSize.height, 160)
    }

    func testADeleteWithTopSlidesTheRowUnderTheOneAboveAndRecyclesIt() throws {
        let stage = try makeStage(width: 100, height: 200)
        let rows = Rows([3])
        rows.fixedHeight = 40
        let table = makeTable(rows, on: stage)
        let leaving = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        rows.counts = [2]
        table.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .top)
        XCTAssertTrue(leaving.superview === table, "still shown while it leaves")
        XCTAssertEqual(leaving.frame.minY, 0, "its bottom ends at the bottom of the row above")
        XCTAssertLessThan(table.subviews.firstIndex(of: leaving)!, table.subviews.firstIndex(of: table.cellForRow(at: IndexPath(row: 0, section: 0))!)!,
                          "behind the row above")
        try stage.waitUntilIdle()
        XCTAssertNil(leaving.superview, "gone when the update ends")
        XCTAssertEqual(table.visibleCells.count, 2)
    }

    func testAnInvalidUpdateLogsUIKitsMessageAndReloads() throws {
        let stage = try makeStage(width: 100, height: 200)
        let rows = Rows([3])
        let table = makeTable(rows, on: stage)
        rows.counts = [5]
        table.insertRows(at: [IndexPath(row: 0, section: 0)], with: .automatic)
        XCTAssertEqual(stage.warnings.count, 1)
        XCTAssertTrue(stage.warnings.first?.contains("NSInternalInconsistencyException") == true)
        XCTAssertTrue(stage.warnings.first?.contains("invalid number of rows in section 0. The number of rows contained in an existing section after the update (5) must be equal to the number of rows contained in that section before the update (3), plus or minus the number of rows inserted or deleted from that section (1 inserted, 0 deleted)") == true,
                      stage.warnings.first ?? "")
        XCTAssertEqual(table.numberOfRows(inSection: 0), 5, "reloaded instead")
    }

    func testATapSelectsTheRowAndHidesTheSeparatorsAroundIt() throws {
        let stage = try makeStage(width: 100, height: 200)
        let rows = Rows([4])
        rows.fixedHeight = 40
        let table = makeTable(rows, on: stage)
        try stage.tap(at: CGPoint(x: 50, y: 60))
        XCTAssertEqual(rows.selected, [IndexPath(row: 1, section: 0)])
        XCTAssertEqual(table.indexPathForSelectedRow, IndexPath(row: 1, section: 0))
        let cells = table.visibleCells
        XCTAssertTrue(cells[1].isSelected)
        XCTAssertEqual(cells[1].selectedBackgroundView?.alpha, 1)
        // The selected row's separator and the one above it are hidden; the others stay.
        let separators = cells.map { cell in cell.subviews.contains { $0.frame.height == 1 && $0.frame.minY == 39 && !$0.isHidden } }
        XCTAssertEqual(separators, [false, false, true, true])
        table.deselectRow(at: IndexPath(row: 1, section: 0), animated: false)
        stage.window.layoutIfNeeded()
        XCTAssertEqual(cells.map { cell in cell.subviews.contains { $0.frame.height == 1 && $0.frame.minY == 39 && !$0.isHidden } }, [true, true, true, true])
    }

    func testEndUpdatesAloneAnimatesACellThatGrew() throws {
        let stage = try makeStage(width: 200, height: 300)
        let rows = Rows([3])
        let table = makeTable(rows, on: stage)
        let next = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        XCTAssertEqual(next.frame.minY, 44)
        rows.tall = [IndexPath(row: 0, section: 0)]
        table.cellForRow(at: IndexPath(row: 0, section: 0))?.textLabel?.text = "0.0\nsecond\nthird"
        table.beginUpdates()
        table.endUpdates()
        let grown = table.rectForRow(at: IndexPath(row: 0, section: 0)).height
        XCTAssertGreaterThan(grown, 60)
        XCTAssertEqual(next.frame.minY, grown)
        try stage.wait(0.15)
        XCTAssertEqual(next.layer.presentation()!.frame.minY, (44 + grown) / 2, accuracy: 1e-9)
    }

    /// A list that pushes a detail screen for the row tapped.
    final class List: UITableViewController {
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 5 }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "row") ?? UITableViewCell(style: .value1, reuseIdentifier: "row")
            cell.textLabel?.text = "Row \(indexPath.row)"
            cell.detailTextLabel?.text = "\(indexPath.row * 3)"
            cell.accessoryType = .disclosureIndicator
            return cell
        }
        override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
            let detail = UIViewController()
            detail.view.backgroundColor = .systemBackground
            detail.title = "Row \(indexPath.row)"
            navigationController?.pushViewController(detail, animated: true)
        }
    }

    func testAControllerDeselectsItsRowAlongsideThePop() throws {
        let stage = try makeStage(width: 160, height: 300)
        let list = List(style: .plain)
        list.title = "List"
        let navigation = UINavigationController(rootViewController: list)
        stage.show(navigation)
        try stage.wait(0.1)
        let row = try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: 2, section: 0)))
        let point = row.convert(CGPoint(x: 40, y: 20), to: stage.window)
        try stage.tap(at: point)
        XCTAssertTrue(row.isSelected)
        try stage.waitUntilIdle()
        XCTAssertEqual(navigation.viewControllers.count, 2)
        XCTAssertTrue(row.isSelected, "still selected under the detail screen")
        navigation.popViewController(animated: true)
        try stage.wait(0.1)
        let fading = try XCTUnwrap(row.selectedBackgroundView?.layer.presentation()?.opacity)
        XCTAssertGreaterThan(fading, 0.05, "the highlight fades with the pop…")
        XCTAssertLessThan(fading, 0.95)
        try stage.waitUntilIdle()
        XCTAssertFalse(row.isSelected, "…and is gone when it ends")
        XCTAssertNil(list.tableView.indexPathForSelectedRow)
        XCTAssertEqual(stage.warnings, [])
    }

    /// A message list: each cell a body label pinned to the content view's margins.
    final class MessageCell: UITableViewCell {
        let body = UILabel()

        required init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
            super.init(style: style, reuseIdentifier: reuseIdentifier)
            body.numberOfLines = 0
            body.font = .preferredFont(forTextStyle: .body)
            body.translatesAutoresizingMaskIntoConstraints = false
            contentView.addSubview(body)
            let margins = contentView.layoutMarginsGuide
            NSLayoutConstraint.activate([
                body.topAnchor.constraint(equalTo: margins.topAnchor),
                body.bottomAnchor.constraint(equalTo: margins.bottomAnchor),
                body.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
                body.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
            ])
        }

        required init?(coder: NSCoder) { nil }
    }

    final class Messages: NSObject, UITableViewDataSource {
        let lines = [1, 3, 2, 1]
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { lines.count }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "message", for: indexPath) as! MessageCell
            cell.body.text = (1...lines[indexPath.row]).map { "Line \($0)" }.joined(separator: "\n")
            return cell
        }
    }

    /// Row heights derived by hand from UIKit's rules: the label's lines at the body font's line height
    /// (rounded up to whole points, as a label sizes itself), the content view's 11-pt margins above and
    /// below, and the separator's device pixel; rows stacked from the top under the safe area.
    func testAMessageListSizesItsRowsAtEveryWidthAndTextSize() throws {
        for (width, scale) in [(CGFloat(320), CGFloat(1)), (390, 2)] {
            for size in [UIContentSizeCategory.large, .extraExtraLarge, .accessibilityMedium] {
                let device = Device(name: "phone", size: CGSize(width: width, height: 600), scale: scale,
                                    safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0))
                let stage = try Stage(device: device, fps: 10, contentSizeCategory: size)
                let table = UITableView(frame: stage.window.bounds, style: .plain)
                table.register(MessageCell.self, forCellReuseIdentifier: "message")
                let source = Messages()
                table.dataSource = source
                stage.window.addSubview(table)
                stage.window.layoutIfNeeded()
                let lineHeight = UIFont.preferredFont(forTextStyle: .body).lineHeight
                var y: CGFloat = 0
                for (row, lines) in source.lines.enumerated() {
                    let height = (CGFloat(lines) * lineHeight).rounded(.up) + 22 + 1 / scale
                    XCTAssertEqual(table.rectForRow(at: IndexPath(row: row, section: 0)), CGRect(x: 0, y: y, width: width, height: height),
                                   "row \(row) at \(width) pt @\(scale)x, \(size)")
                    let cell = try XCTUnwrap(table.cellForRow(at: IndexPath(row: row, section: 0)) as? MessageCell)
                    XCTAssertEqual(cell.body.frame, CGRect(x: 16, y: 11, width: width - 32, height: height - 22 - 1 / scale))
                    y += height
                }
                XCTAssertEqual(table.contentOffset.y, -20, "resting under the safe area")
                XCTAssertEqual(table.cellForRow(at: IndexPath(row: 0, section: 0))?.convert(CGPoint.zero, to: stage.window).y, 20)
                XCTAssertEqual(stage.warnings, [])
            }
        }
    }

    func testASwitchHasUIKitsSizeAndATapTogglesIt() throws {
        let stage = try makeStage(width: 100, height: 60)
        let toggle = UISwitch(frame: CGRect(x: 10, y: 10, width: 200, height: 200))
        XCTAssertEqual(toggle.frame, CGRect(x: 10, y: 10, width: 51, height: 31), "the size is fixed")
        XCTAssertEqual(toggle.intrinsicContentSize, CGSize(width: 51, height: 31))
        var changes: [Bool] = []
        toggle.addAction(UIAction { _ in changes.append(toggle.isOn) }, for: .valueChanged)
        stage.window.addSubview(toggle)
        toggle.setOn(true, animated: false)
        XCTAssertEqual(changes, [], "setOn sends nothing")
        try stage.tap(at: CGPoint(x: 30, y: 25))
        XCTAssertEqual(changes, [false])
        XCTAssertFalse(toggle.isOn)
        try stage.waitUntilIdle()
        // Off: the thumb at the left, white, on the light fill.
        let frame = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertEqual(frame.rgba(10 + 2 + 13, 10 + 15), [255, 255, 255, 255])
        XCTAssertNotEqual(frame.rgba(10 + 40, 10 + 15), [255, 255, 255, 255])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: testDevice(width: 100, height: 60), fps: 30, scale: 3)
            big.window.backgroundColor = .systemBackground
            let shown = UISwitch(frame: CGRect(x: 10, y: 10, width: 0, height: 0))
            big.window.addSubview(shown)
            try big.wait(0.1)
            try big.tap(at: CGPoint(x: 30, y: 25))
            try big.waitUntilIdle()
            try big.write(to: look + "/switch")
        }
    }

    /// iOS 14's list content configurations, as settings screens write them.
    final class Settings: NSObject, UITableViewDataSource {
        func numberOfSections(in tableView: UITableView) -> Int { 2 }
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 2 }
        func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { section == 0 ? "Account" : "About" }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: indexPath.section == 0 ? "subtitle" : "value") ?? UITableViewCell(
                style: indexPath.section == 0 ? .subtitle : .value1, reuseIdentifier: indexPath.section == 0 ? "subtitle" : "value")
            var content = cell.defaultContentConfiguration()
            content.text = indexPath.section == 0 ? "Name \(indexPath.row)" : "Version"
            content.secondaryText = indexPath.section == 0 ? "Subtitle" : "1.\(indexPath.row)"
            cell.contentConfiguration = content
            cell.accessoryType = indexPath.section == 0 ? .disclosureIndicator : .none
            return cell
        }
    }

    func testListContentConfigurationsLayOutAndSizeTheirRows() throws {
        let stage = try makeStage(width: 240, height: 400)
        let table = UITableView(frame: stage.window.bounds, style: .insetGrouped)
        let source = Settings()
        table.dataSource = source
        stage.window.addSubview(table)
        stage.window.layoutIfNeeded()
        let body = UIFont.preferredFont(forTextStyle: .body).lineHeight, subheadline = UIFont.preferredFont(forTextStyle: .subheadline).lineHeight
        let subtitled = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        XCTAssertEqual(subtitled.frame.height, (body.rounded(.up) + 3 + subheadline.rounded(.up) + 22).rounded(.up) + 1,
                       "text, 3 points, secondary text, 11-point margins, the separator's pixel")
        XCTAssertEqual(subtitled.frame.minX, 16, "inset grouped")
        let value = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 1)))
        XCTAssertEqual(value.frame.height, 44, "one line: the minimum")
        let labels = value.contentView.subviews.first?.subviews.compactMap { $0 as? UILabel } ?? []
        XCTAssertEqual(labels.map(\.text), ["Version", "1.1"])
        XCTAssertEqual(labels[1].frame.maxX, value.contentView.bounds.width - 16, "the value at the trailing margin")
        XCTAssertNil(stage.warnings.first)
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: testDevice(width: 240, height: 400), fps: 10, scale: 2)
            let shown = UITableView(frame: big.window.bounds, style: .insetGrouped)
            shown.dataSource = source
            big.window.addSubview(shown)
            try big.wait(0.1)
            try big.write(to: look + "/settings")
        }
    }

    // MARK: Found in review

    /// A cell scrolled under the navigation bar keeps its margins (the table, not its content, is inset
    /// for the safe area), so measuring it again gives the same height.
    func testACellUnderTheBarKeepsItsMarginsAndHeight() throws {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 200, height: 300), scale: 1,
                                             safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0)), fps: 10)
        final class List: UITableViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                tableView.register(MessageCell.self, forCellReuseIdentifier: "message")
            }
            override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 30 }
            override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                let cell = tableView.dequeueReusableCell(withIdentifier: "message", for: indexPath) as! MessageCell
                cell.body.text = "Row \(indexPath.row)"
                return cell
            }
        }
        let list = List(nibName: nil, bundle: nil)
        stage.show(UINavigationController(rootViewController: list))
        try stage.wait(0.1)
        let table = try XCTUnwrap(list.tableView)
        let top = table.adjustedContentInset.top
        XCTAssertEqual(top, 64, "the status bar's 20 and the bar's 44")
        let height = table.rectForRow(at: IndexPath(row: 2, section: 0)).height
        table.contentOffset = CGPoint(x: 0, y: table.rectForRow(at: IndexPath(row: 2, section: 0)).minY - top + 10)
        stage.window.layoutIfNeeded()
        let cell = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 2, section: 0)) as? MessageCell)
        XCTAssertEqual(cell.contentView.layoutMargins.top, 11)
        XCTAssertEqual(cell.body.frame.minY, 11)
        table.beginUpdates()
        table.endUpdates()
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 2, section: 0)).height, height)
    }

    func testLessContentBringsTheOffsetBackWithinIt() throws {
        let stage = try makeStage(width: 100, height: 200)
        let rows = Rows([100])
        rows.fixedHeight = 40
        let table = makeTable(rows, on: stage)
        table.contentOffset = CGPoint(x: 0, y: 3800)
        rows.counts = [50]
        table.deleteRows(at: (50..<100).map { IndexPath(row: $0, section: 0) }, with: .fade)
        XCTAssertEqual(table.contentOffset.y, 1800, "the end of 2000 points of rows")
        try stage.waitUntilIdle()
        XCTAssertEqual(table.indexPathsForVisibleRows?.map(\.row), Array(45..<50))
        rows.counts = [3]
        table.reloadData()
        XCTAssertEqual(table.contentOffset.y, 0)
        XCTAssertEqual(table.visibleCells.count, 3)
    }

    func testAnAnimatedScrollFarAwayKeepsFewCellsAndShowsTheRowsItPasses() throws {
        let stage = try makeStage(width: 100, height: 200)
        let rows = Rows([10_000])
        rows.fixedHeight = 40
        let table = makeTable(rows, on: stage)
        table.scrollToRow(at: IndexPath(row: 9_000, section: 0), at: .top, animated: true)
        var most = 0
        for _ in 0..<3 {
            try stage.wait(0.1)
            most = max(most, table.subviews.filter { $0 is UITableViewCell }.count)
            let shown = try XCTUnwrap(table.layer.presentation()?.bounds)
            let first = Int(shown.minY / 40)
            XCTAssertNotNil(table.visibleCells.first { table.indexPath(for: $0)?.row == first }, "the row at the top of the picture at \(stage.time) s has a cell")
        }
        try stage.waitUntilIdle()
        XCTAssertLessThanOrEqual(most, 12, "two screens of rows at most")
        XCTAssertEqual(table.indexPathsForVisibleRows?.first?.row, 9_000)
        XCTAssertLessThan(rows.made, 200)
    }

    func testWillDisplayAndDidEndDisplayingPairUp() throws {
        let stage = try makeStage(width: 100, height: 120)
        final class Log: NSObject, UITableViewDataSource, UITableViewDelegate {
            var shown = Set<Int>()
            var unpaired = 0
            var counts = 20
            func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { counts }
            func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
                cell.textLabel?.numberOfLines = 0
                cell.textLabel?.text = Array(repeating: "line", count: 4).joined(separator: "\n")
                return cell
            }
            func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) { shown.insert(indexPath.row) }
            func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
                if shown.remove(indexPath.row) == nil { unpaired += 1 }
            }
        }
        let log = Log()
        let table = UITableView(frame: stage.window.bounds, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.dataSource = log
        table.delegate = log
        stage.window.addSubview(table)
        table.layoutIfNeeded()
        table.contentOffset = CGPoint(x: 0, y: 500)
        log.counts = 18
        table.deleteRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
        table.deleteRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
        try stage.waitUntilIdle()
        table.reloadData()
        table.layoutIfNeeded()
        XCTAssertEqual(log.unpaired, 0)
        XCTAssertEqual(log.shown, Set(table.indexPathsForVisibleRows?.map(\.row) ?? []))
    }

    func testAnInsertedSectionsHeaderFadesInAtItsPlaceAndNestedCompletionsRun() throws {
        let stage = try makeStage(width: 100, height: 300)
        final class Sections: NSObject, UITableViewDataSource {
            var sections = 1
            func numberOfSections(in tableView: UITableView) -> Int { sections }
            func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 2 }
            func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { "Section \(section)" }
            func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            }
        }
        let source = Sections()
        let table = UITableView(frame: stage.window.bounds, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.rowHeight = 40
        table.dataSource = source
        stage.window.addSubview(table)
        table.layoutIfNeeded()
        source.sections = 2
        var completed: [String] = []
        table.beginUpdates()
        table.performBatchUpdates({ table.insertSections(IndexSet(integer: 1), with: .fade) }, completion: { _ in completed.append("inner") })
        table.endUpdates()
        let header = try XCTUnwrap(table.headerView(forSection: 1))
        try stage.wait(0.15)
        let shown = try XCTUnwrap(header.layer.presentation())
        XCTAssertEqual(shown.frame, CGRect(x: 0, y: 108, width: 100, height: 28), "at its place from the start: 28 + 2 × 40")
        XCTAssertEqual(Double(shown.opacity), 0.5, accuracy: 1e-6, "fading in")
        try stage.waitUntilIdle()
        XCTAssertEqual(completed, ["inner"])
    }

    func testACellWhoseConstraintsLeaveItsHeightOpenGets44() throws {
        let stage = try makeStage(width: 100, height: 200)
        final class Loose: UITableViewCell {
            required init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
                super.init(style: style, reuseIdentifier: reuseIdentifier)
                let label = UILabel()
                label.text = "loose"
                label.translatesAutoresizingMaskIntoConstraints = false
                contentView.addSubview(label)
                label.topAnchor.constraint(equalTo: contentView.topAnchor).isActive = true
                label.leadingAnchor.constraint(equalTo: contentView.leadingAnchor).isActive = true
            }
            required init?(coder: NSCoder) { nil }
        }
        final class One: NSObject, UITableViewDataSource {
            func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 1 }
            func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                tableView.dequeueReusableCell(withIdentifier: "loose", for: indexPath)
            }
        }
        let source = One()
        let table = UITableView(frame: stage.window.bounds, style: .plain)
        table.register(Loose.self, forCellReuseIdentifier: "loose")
        table.dataSource = source
        stage.window.addSubview(table)
        table.layoutIfNeeded()
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 0, section: 0)).height, 44)
        XCTAssertEqual(stage.warnings.filter { $0.contains("it is given 44") }.count, 1)
    }

    func testARegisteredHeaderViewTakesTheGroupedStyle() throws {
        let stage = try makeStage(width: 200, height: 300)
        final class Headed: NSObject, UITableViewDataSource, UITableViewDelegate {
            func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 1 }
            func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            }
            func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? {
                let header = tableView.dequeueReusableHeaderFooterView(withIdentifier: "header")
                header?.textLabel?.text = "Settings"
                return header
            }
        }
        let source = Headed()
        let table = UITableView(frame: stage.window.bounds, style: .insetGrouped)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.register(UITableViewHeaderFooterView.self, forHeaderFooterViewReuseIdentifier: "header")
        table.dataSource = source
        table.delegate = source
        stage.window.addSubview(table)
        table.layoutIfNeeded()
        let header = try XCTUnwrap(table.headerView(forSection: 0))
        XCTAssertEqual(header.frame.height, 38, "a grouped header's height")
        XCTAssertNil(header.backgroundColor, "no plain bar")
        XCTAssertEqual(header.textLabel?.font.pointSize, 13)
        header.layoutIfNeeded()
        XCTAssertEqual(header.textLabel?.text, "SETTINGS")
    }

    func testAScrollViewInANavigationControllerStaysUnderTheBarWhenItsContentComesLate() throws {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 200, height: 300), scale: 1,
                                             safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0)), fps: 10)
        final class Screen: UIViewController {
            let scroll = UIScrollView()
            override func loadView() { view = scroll }
        }
        let screen = Screen()
        stage.show(UINavigationController(rootViewController: screen))
        try stage.wait(0.1)
        XCTAssertEqual(screen.scroll.contentOffset.y, -64)
        screen.scroll.contentSize = CGSize(width: 200, height: 1000)
        XCTAssertEqual(screen.scroll.contentOffset.y, -64, "still resting under the bar")
        screen.scroll.contentInset.top = 10
        XCTAssertEqual(screen.scroll.contentOffset.y, -74)
    }
}
