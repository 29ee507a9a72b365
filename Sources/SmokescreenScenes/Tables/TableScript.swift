import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor
import Typesetting

/// A table scene: its screen, its data (it is the table's data source and delegate, as a view
/// controller would be) and the steps it runs at set times.
class TableScript: TableViewDataSource, TableViewDelegate {
    let screen: TableScreen
    let engine: AnimationEngine
    let scale: Double
    var context: TransitionContext?
    var table: TableView { screen.table }

    init(screen: TableScreen, engine: AnimationEngine, scale: Double) {
        self.screen = screen
        self.engine = engine
        self.scale = scale
    }

    static func make(_ scene: TableTransition.Scene, engine: AnimationEngine, scale: Double, appearance: Appearance,
                     textSize: Font.ContentSize) throws -> TableScript {
        switch scene {
        case .rowStyles: try RowStylesScript(engine: engine, scale: scale, appearance: appearance, textSize: textSize)
        case .sortPlays: try SortPlaysScript(engine: engine, scale: scale, appearance: appearance, textSize: textSize)
        case .batchMixed: try BatchMixedScript(engine: engine, scale: scale, appearance: appearance, textSize: textSize)
        case .controlRow: try ControlRowScript(engine: engine, scale: scale, appearance: appearance, textSize: textSize)
        case .multipleSelection: try MultipleSelectionScript(engine: engine, scale: scale, appearance: appearance, textSize: textSize)
        case .floatingView: try FloatingViewScript(engine: engine, scale: scale, appearance: appearance, textSize: textSize)
        }
    }

    /// The system colours of the screen's appearance.
    var palette: SystemPalette { SystemPalette.of(table.appearance) }

    /// Loads the table and schedules the steps.
    func start() throws {
        table.register(style: .default, forCellReuseIdentifier: "row")
        table.register(style: .value1, forCellReuseIdentifier: "row-value1")
        table.register(style: .subtitle, forCellReuseIdentifier: "row-subtitle")
        table.dataSource = self
        table.delegate = self
        try self.table.reloadData()
        try setUp()
        for (time, step) in steps() {
            engine.perform(afterDelay: time) { [weak self] in
                guard let self else { return }
                do { try step() } catch { self.context?.recordError(error) }
            }
        }
    }

    /// Anything to do after the first load (subclasses).
    func setUp() throws {}
    /// The script: what to do at which time (seconds from the start).
    func steps() -> [(Double, () throws -> Void)] { [] }

    // Data source defaults: subclasses override.
    func numberOfSections(in tableView: TableView) -> Int { 1 }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 0 }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
    }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { nil }
    func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? { nil }
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double { TableView.automaticDimension }
    func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {}
    func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) {}
    /// The bar follows the table's scroll edge; subclasses call `super`.
    func scrollViewDidScroll(_ scrollView: ScrollView) { screen.updateBar() }

    /// A cell titled `text`, from the "row" queue.
    func textCell(_ text: String, detail: String? = nil, for indexPath: IndexPath, style: TableViewCell.CellStyle = .default) -> TableViewCell {
        let identifier = style == .default ? "row" : "row-\(style.rawValue)"
        let cell = table.dequeueReusableCell(withIdentifier: identifier, for: indexPath)
        cell.textLabel.text = text
        cell.detailTextLabel?.text = detail ?? ""
        cell.name = text
        return cell
    }
}

// MARK: table-row-styles

/// One update per style: a row inserted at row 2 and the row at row 6 deleted, both with that style.
final class RowStylesScript: TableScript {
    static let styles: [TableViewRowAnimation] = [.fade, .right, .left, .top, .bottom, .middle, .none, .automatic]
    static let words = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliett", "Kilo", "Lima", "Mike"]
    var rows: [String] = RowStylesScript.words

    init(engine: AnimationEngine, scale: Double, appearance: Appearance, textSize: Font.ContentSize) throws {
        try super.init(screen: TableScreen(title: "Row Animations", style: .plain, engine: engine, appearance: appearance, textSize: textSize), engine: engine, scale: scale)
    }

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { rows.count }
    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let text = rows[indexPath.row]
        // Inserted rows look like any other cell (with "inserted" as their detail), so each keeps its
        // separator and the rows never read as one slab.
        return textCell(text, detail: text.hasPrefix(".") ? "inserted" : nil, for: indexPath, style: .value1)
    }

    override func steps() -> [(Double, () throws -> Void)] {
        Self.styles.enumerated().map { k, style in
            (0.2 + Double(k) * 0.6, { [unowned self] in
                rows.remove(at: 6)
                rows.insert(".\(style.rawValue)", at: 2)
                try self.table.performBatchUpdates({
                    try self.table.deleteRows(at: [IndexPath(row: 6, section: 0)], with: style)
                    try self.table.insertRows(at: [IndexPath(row: 2, section: 0)], with: style)
                })
            })
        }
    }
}

// MARK: table-sort-plays

/// Shakespeare's plays as sections of a grouped table, some open (their characters as rows).
final class SortPlaysScript: TableScript {
    struct Play { let title: String; let characters: [String]; var open: Bool }
    var plays: [Play] = [
        Play(title: "Macbeth", characters: ["Macbeth", "Lady Macbeth", "Banquo"], open: false),
        Play(title: "Hamlet", characters: ["Hamlet", "Ophelia", "Polonius"], open: true),
        Play(title: "Twelfth Night", characters: ["Viola", "Malvolio"], open: true),
        Play(title: "Othello", characters: ["Othello", "Desdemona", "Iago"], open: false),
        Play(title: "As You Like It", characters: ["Rosalind", "Orlando"], open: true),
        Play(title: "King Lear", characters: ["Lear", "Cordelia"], open: false),
        Play(title: "The Tempest", characters: ["Prospero", "Miranda", "Ariel"], open: false),
    ]

    init(engine: AnimationEngine, scale: Double, appearance: Appearance, textSize: Font.ContentSize) throws {
        try super.init(screen: TableScreen(title: "Plays", button: "Sort", style: .grouped, engine: engine, appearance: appearance, textSize: textSize), engine: engine, scale: scale)
    }

    override func numberOfSections(in tableView: TableView) -> Int { plays.count }
    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        plays[section].open ? plays[section].characters.count : 0
    }
    override func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { plays[section].title }
    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        textCell(plays[indexPath.section].characters[indexPath.row], for: indexPath)
    }

    /// The demo's "toggle sort": the model changes, then one update moves every section from its old
    /// index to its new one.
    func toggleSort(alphabetical: Bool) throws {
        let current = plays
        let sorted = alphabetical ? current.sorted { $0.title < $1.title } : Self.originalOrder.compactMap { t in current.first { $0.title == t } }
        plays = sorted
        try self.table.performBatchUpdates({
            for (old, play) in current.enumerated() {
                guard let new = sorted.firstIndex(where: { $0.title == play.title }) else { continue }
                try self.table.moveSection(old, toSection: new)
            }
        })
    }

    static let originalOrder = ["Macbeth", "Hamlet", "Twelfth Night", "Othello", "As You Like It", "King Lear", "The Tempest"]

    /// The "Sort" button is tapped for each sort: pressed just before, released as the sort starts.
    override func setUp() throws {
        for time in [1.0, 2.0] {
            BarButtonPress.tap({ [weak self] in self?.screen.barButton }, liftingAt: time, on: engine) {}
        }
    }

    override func steps() -> [(Double, () throws -> Void)] {
        [
            (0.3, { [unowned self] in
                // Open Othello: its characters slide in.
                plays[3].open = true
                try self.table.insertRows(at: (0..<3).map { IndexPath(row: $0, section: 3) }, with: .automatic)
            }),
            // The sorts, as the finger lifts from "Sort" (setUp presses it).
            (1.0, { [unowned self] in try toggleSort(alphabetical: true) }),
            (2.0, { [unowned self] in try toggleSort(alphabetical: false) }),
        ]
    }
}

// MARK: table-batch-mixed

/// Five sections; one update inserts, deletes, reloads and moves rows and sections.
final class BatchMixedScript: TableScript {
    var sections: [(title: String, rows: [String])] = [
        ("Fruit", ["Apple", "Banana", "Cherry", "Damson"]),
        ("Vegetables", ["Leek", "Carrot", "Onion"]),
        ("Bread", ["Rye", "Sourdough"]),
        ("Cheese", ["Brie", "Cheddar", "Gouda"]),
        ("Spices", ["Salt", "Pepper"]),
    ]

    init(engine: AnimationEngine, scale: Double, appearance: Appearance, textSize: Font.ContentSize) throws {
        try super.init(screen: TableScreen(title: "Groceries", style: .plain, engine: engine, appearance: appearance, textSize: textSize), engine: engine, scale: scale)
    }

    override func numberOfSections(in tableView: TableView) -> Int { sections.count }
    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].rows.count }
    override func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { sections[section].title }
    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        textCell(sections[indexPath.section].rows[indexPath.row], for: indexPath)
    }

    override func steps() -> [(Double, () throws -> Void)] {
        [(0.3, { [unowned self] in
            // Sections: Cheese moves to the top, Bread is deleted, Drinks inserted, Spices reloaded.
            // Rows: Banana deleted, Cherry reloaded, Fig inserted, Apple moved to the end of Fruit,
            // Carrot moved from Vegetables into Fruit, Potato inserted.
            sections = [
                ("Cheese", ["Brie", "Cheddar", "Gouda"]),
                ("Fruit", ["Fig", "Cherry (ripe)", "Damson", "Carrot", "Apple"]),
                ("Vegetables", ["Leek", "Onion", "Potato"]),
                ("Drinks", ["Tea", "Coffee"]),
                ("Spices", ["Salt", "Pepper", "Saffron"]),
            ]
            try self.table.performBatchUpdates({
                try self.table.moveSection(3, toSection: 0)
                try self.table.deleteSections([2], with: .left)
                try self.table.insertSections([3], with: .right)
                try self.table.reloadSections([4], with: .fade)
                try self.table.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .left)
                try self.table.reloadRows(at: [IndexPath(row: 2, section: 0)], with: .fade)
                try self.table.insertRows(at: [IndexPath(row: 0, section: 1)], with: .right)
                try self.table.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 4, section: 1))
                try self.table.moveRow(at: IndexPath(row: 1, section: 1), to: IndexPath(row: 3, section: 1))
                try self.table.insertRows(at: [IndexPath(row: 2, section: 2)], with: .fade)
            })
        })]
    }
}

// MARK: table-control-row

/// Quotes; a tap shows a control row under the tapped row (at most one), the talk's second demo.
final class ControlRowScript: TableScript {
    static let quotes = [
        "If music be the food of love, play on", "All the world's a stage", "Brevity is the soul of wit",
        "The course of true love never did run smooth", "Some are born great", "Now is the winter of our discontent",
        "We are such stuff as dreams are made on", "Cowards die many times before their deaths",
        "The better part of valour is discretion", "What's in a name?", "Lord, what fools these mortals be!",
    ]
    /// The quote whose control row shows, as an index into `quotes`.
    var owner: Int?

    init(engine: AnimationEngine, scale: Double, appearance: Appearance, textSize: Font.ContentSize) throws {
        try super.init(screen: TableScreen(title: "Quotes", style: .plain, engine: engine, appearance: appearance, textSize: textSize), engine: engine, scale: scale)
    }

    /// The row of the control row, if one shows.
    var controlRow: Int? { owner.map { $0 + 1 } }

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        Self.quotes.count + (owner == nil ? 0 : 1)
    }
    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        if indexPath.row == controlRow {
            let cell = table.dequeueReusableCell(withIdentifier: "control", for: indexPath)
            cell.name = "control row"
            if cell.contentView.subviews.count < 4 { ControlRowScript.addButtons(to: cell, palette: palette) }
            cell.backgroundView.isHidden = true
            // #EFEFF4 (#1C1C1E dark): a band set off from the rows.
            cell.backgroundColor = palette.appearance == .dark ? Color(red8: 0x1C, green8: 0x1C, blue8: 0x1E) : Color(red8: 0xEF, green8: 0xEF, blue8: 0xF4)
            return cell
        }
        let quote = quoteIndex(forRow: indexPath.row)
        return textCell(Self.quotes[quote], for: indexPath)
    }
    override func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        indexPath.row == controlRow ? nil : indexPath  // the control row cannot be selected
    }
    override func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath, animated: true)
        let tapped = quoteIndex(forRow: indexPath.row)
        let old = controlRow
        owner = owner == tapped ? nil : tapped
        do {
            try tableView.performBatchUpdates({
                if let old { try tableView.deleteRows(at: [IndexPath(row: old, section: 0)], with: .top) }
                if let new = self.controlRow { try tableView.insertRows(at: [IndexPath(row: new, section: 0)], with: .top) }
            })
        } catch {
            context?.recordError(error)
        }
    }

    func quoteIndex(forRow row: Int) -> Int {
        guard let controlRow, row >= controlRow else { return row }
        return row - 1
    }

    static func addButtons(to cell: TableViewCell, palette: SystemPalette) {
        for (i, title) in ["Like", "Dislike", "Share"].enumerated() {
            let button = View(frame: Rect(x: 16 + Double(i) * 116, y: 7, width: 104, height: 30), name: "button \(title)")
            // White (#2C2C2E dark, tertiarySystemBackground).
            button.backgroundColor = palette.appearance == .dark ? Color(red8: 0x2C, green8: 0x2C, blue8: 0x2E) : .white
            button.cornerRadius = 8
            button.borderWidth = 0.5
            button.borderColor = palette.separator
            let label = Label(text: title, style: TextStyle(font: .system(size: 15), color: palette.tint, alignment: .center),
                              frame: Rect(x: 0, y: 0, width: 104, height: 30))
            try? button.addSubview(label)
            try? cell.contentView.addSubview(button)
        }
    }

    override func steps() -> [(Double, () throws -> Void)] {
        [
            (0.2, { [unowned self] in table.tapRow(at: IndexPath(row: 1, section: 0)) }),
            // A tap on the control row selects nothing.
            (0.8, { [unowned self] in table.tapRow(at: IndexPath(row: 2, section: 0)) }),
            (1.0, { [unowned self] in table.tapRow(at: IndexPath(row: 4, section: 0)) }),
            (1.8, { [unowned self] in table.tapRow(at: IndexPath(row: 3, section: 0)) }),
        ]
    }
}

// MARK: table-multiple-selection

/// A packing list with multiple selection: taps check and uncheck rows.
final class MultipleSelectionScript: TableScript {
    static let items = ["Passport", "Tickets", "Charger", "Umbrella", "Sunglasses", "Book", "Camera", "Toothbrush", "Scarf", "Map"]

    init(engine: AnimationEngine, scale: Double, appearance: Appearance, textSize: Font.ContentSize) throws {
        try super.init(screen: TableScreen(title: "Packing", style: .plain, engine: engine, appearance: appearance, textSize: textSize), engine: engine, scale: scale)
    }

    override func setUp() throws {
        table.allowsMultipleSelection = true
    }

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { Self.items.count }
    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = textCell(Self.items[indexPath.row], for: indexPath)
        cell.accessoryType = tableView.indexPathsForSelectedRows?.contains(indexPath) == true ? .checkmark : .none
        return cell
    }
    override func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        tableView.cellForRow(at: indexPath)?.accessoryType = .checkmark
    }
    override func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) {
        tableView.cellForRow(at: indexPath)?.accessoryType = .none
    }

    override func steps() -> [(Double, () throws -> Void)] {
        [(0.2, 0), (0.5, 2), (0.8, 3), (1.1, 6), (1.4, 2), (1.7, 8), (2.0, 0)].map { time, row in
            (time, { [unowned self] in table.tapRow(at: IndexPath(row: row, section: 0)) })
        } + [(2.4, {})]  // the last state stays on screen for a moment
    }
}

// MARK: table-floating-view

/// The talk's last demo: a button kept at the same place on screen from `scrollViewDidScroll` while
/// the table scrolls and bounces, and behind the rows a background view holding clouds twice the
/// table's width that move left on a 60 s linear animation repeating forever.
final class FloatingViewScript: TableScript {
    let button: View
    /// The button's y in the table's content when the offset is 0 (the demo's `cloudViewOrigin`).
    let buttonOrigin: Double
    let clouds: ImageView

    init(engine: AnimationEngine, scale: Double, appearance: Appearance, textSize: Font.ContentSize) throws {
        let screen = try TableScreen(title: "Shakespeare", style: .plain, engine: engine, appearance: appearance, textSize: textSize)
        let table = screen.table
        button = View(frame: Rect(x: table.bounds.width - 16 - 100, y: 12, width: 100, height: 32), name: "floatingButton")
        button.backgroundColor = SystemPalette.of(appearance).tint
        button.cornerRadius = 16
        let label = Label(text: "Download", style: TextStyle(font: .boldSystem(size: 15), color: .white, alignment: .center),
                          frame: Rect(x: 0, y: 0, width: 100, height: 32))
        try button.addSubview(label)
        buttonOrigin = 12
        let size = table.bounds.size
        clouds = ImageView(image: try FloatingViewScript.drawClouds(size: size, scale: scale),
                           frame: Rect(x: 0, y: 0, width: size.width * 2, height: size.height), name: "clouds")
        super.init(screen: screen, engine: engine, scale: scale)
    }

    override func setUp() throws {
        let background = View(frame: table.bounds, name: "backgroundView")
        background.clipsToBounds = true
        try background.addSubview(clouds)
        table.backgroundView = background
        table.backgroundColor = nil
        try self.table.addSubview(button)
        // The demo's viewDidAppear: move the clouds left by half their width, linearly, forever.
        engine.animate(duration: 60, options: [.repeat, .curveLinear], animations: { [clouds] in
            clouds.frame = clouds.frame.offsetBy(dx: -clouds.frame.width / 2, dy: 0)
        })
    }

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { ControlRowScript.quotes.count * 3 }
    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = textCell(ControlRowScript.quotes[indexPath.row % ControlRowScript.quotes.count], for: indexPath)
        // Clear cells, so the clouds show through.
        cell.backgroundView.isHidden = true
        return cell
    }

    /// The demo's scrollViewDidScroll: the button's y is its origin plus the offset, so it stays put on
    /// screen, bounces included.
    override func scrollViewDidScroll(_ scrollView: ScrollView) {
        super.scrollViewDidScroll(scrollView)
        var frame = button.frame
        frame.origin.y = buttonOrigin + scrollView.contentOffset.y
        ViewChangeObservation.withoutObserver { button.frame = frame }
    }

    /// How far the finger pulls the content down past the top (points).
    static let pull = 180.0

    override func steps() -> [(Double, () throws -> Void)] {
        [
            (0.2, { [unowned self] in table.setContentOffset(Point(x: 0, y: 700), animated: true) }),
            (1.0, { [unowned self] in table.setContentOffset(Point(x: 0, y: 0), animated: true) }),
            // A finger pulls the content down past the top: it follows the rubber band (about 85 pt shown
            // for a 180-pt pull), then bounces back from the lift, with no hold.
            (1.3, { [unowned self] in table.dragContent(by: Self.pull, duration: 0.3) }),
            (2.55, { [unowned self] in table.setContentOffset(Point(x: 0, y: 220), animated: true) }),
        ]
    }

    /// A sky with clouds, `size` (points) twice over side by side: its right half repeats its left, so
    /// moving it left by half its width and starting again shows no seam.
    static func drawClouds(size: Size, scale: Double) throws -> Bitmap {
        let width = size.width
        let bitmap = try Bitmap(pointSize: Size(width: width * 2, height: size.height), scale: scale)
        let painter = Painter(bitmap: bitmap)
        painter.scale(x: scale, y: scale)
        let bands = 24
        for i in 0..<bands {
            let t = Double(i) / Double(bands - 1)
            let color = Color(red: 0.55 + 0.3 * t, green: 0.75 + 0.17 * t, blue: 0.97, alpha: 1)
            painter.fill(Rect(x: 0, y: size.height * Double(i) / Double(bands), width: width * 2, height: size.height / Double(bands) + 1), color: color)
        }
        // Puffs as groups of ellipses; each is drawn at x and x + width (and x − width where it
        // crosses the left edge) so both halves hold the same clouds.
        let puffs: [(x: Double, y: Double, w: Double)] = [(30, 80, 140), (230, 190, 110), (120, 330, 170), (300, 450, 120), (60, 520, 90)]
        let white = Color(white: 1, alpha: 0.92)
        for puff in puffs {
            for shift in [-width, 0, width] {
                let x = puff.x + shift
                painter.fill(ellipseIn: Rect(x: x, y: puff.y, width: puff.w, height: puff.w * 0.36), color: white)
                painter.fill(ellipseIn: Rect(x: x + puff.w * 0.18, y: puff.y - puff.w * 0.16, width: puff.w * 0.42, height: puff.w * 0.38), color: white)
                painter.fill(ellipseIn: Rect(x: x + puff.w * 0.45, y: puff.y - puff.w * 0.1, width: puff.w * 0.36, height: puff.w * 0.3), color: white)
            }
        }
        return painter.finish()
    }
}
