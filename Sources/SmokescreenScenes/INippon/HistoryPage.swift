import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView
import Typesetting

/// iNippon's History page as the seed built it: one plain view per period (a rolled scroll) stacked in
/// an outer scroll view; tapping a scroll unrolls a table of its events from under it while every
/// scroll below moves down on the same timing; tapping an event switches its language and its row's
/// height with the table's height-only update, the sheet and the scrolls below following on the same
/// timing.
///
/// Taps while a scroll opens or closes are ignored, as the app's were.
package final class HistoryPage {
    /// One unrolled scroll: a clipping view below the scroll's roll whose height grows from 0 while the
    /// paper inside (the events table and the bottom roll) slides down from behind the roll.
    package final class Sheet: TableViewDataSource, TableViewDelegate {
        package let index: Int
        let period: HistoryPeriod
        /// Clips the paper to what has come out from under the roll. Window order: behind the scrolls.
        let container: View
        /// The table and the bottom roll, moving together.
        let paper: View
        let table: TableView
        let bottomRoll: DrawingView
        var languages: [HistoryPeriod.Language]
        weak var page: HistoryPage?

        init(index: Int, period: HistoryPeriod, engine: AnimationEngine) throws {
            self.index = index
            self.period = period
            languages = period.events.map { _ in .english }
            container = View(frame: .zero, name: "sheet-\(index)")
            container.clipsToBounds = true
            paper = View(frame: .zero, name: "paper-\(index)")
            table = TableView(frame: .zero, style: .plain, engine: engine, name: "events-\(index)")
            table.backgroundColor = HistoryMetrics.paper
            table.backgroundView = DrawingView(frame: .zero, drawing: PaperDrawing(), name: "paperTexture")
            // The roll's body is its frame, opaque paper; its knobs are drawn past the frame.
            bottomRoll = DrawingView(frame: .zero, drawing: RollDrawing(body: Rect(x: 0, y: 0, width: HistoryMetrics.rollWidth,
                                                                                    height: HistoryMetrics.bottomRollHeight)),
                                     name: "bottomRoll-\(index)")
            bottomRoll.backgroundColor = HistoryMetrics.paper
            table.register(EventCell.self, forCellReuseIdentifier: "event")
            table.dataSource = self
            table.delegate = self
            try container.addSubview(paper)
            try paper.addSubview(table)
            try paper.addSubview(bottomRoll)
        }

        /// Height (points) of row `row` in its current language.
        func rowHeight(_ row: Int) -> Double {
            (try? EventCell.height(of: period.events[row].text(in: languages[row]), rowWidth: HistoryMetrics.paperWidth)) ?? 44
        }
        /// The table's height: every row shown, the table does not scroll.
        var tableHeight: Double { (0..<period.events.count).reduce(0) { $0 + rowHeight($1) } }
        /// The whole sheet: the table and the bottom roll.
        package var height: Double { tableHeight + HistoryMetrics.bottomRollHeight }

        /// Lays the paper out for the current heights, its top at `y` in the sheet (0 when open,
        /// −height when rolled up).
        func layoutPaper(top y: Double) {
            paper.frame = Rect(x: 0, y: y, width: HistoryMetrics.screen.width, height: height)
            table.frame = Rect(x: HistoryMetrics.paperX, y: 0, width: HistoryMetrics.paperWidth, height: tableHeight)
            table.backgroundView?.frame = Rect(origin: .zero, size: table.bounds.size)
            bottomRoll.frame = Rect(x: HistoryMetrics.rollX, y: tableHeight, width: HistoryMetrics.rollWidth, height: HistoryMetrics.bottomRollHeight)
        }

        package func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { period.events.count }
        package func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "event", for: indexPath)
            cell.textLabel.text = period.events[indexPath.row].text(in: languages[indexPath.row])
            cell.name = "event-\(index)-\(indexPath.row)"
            cell.layoutSubviews()
            return cell
        }
        package func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double { rowHeight(indexPath.row) }
        package func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
            tableView.deselectRow(at: indexPath, animated: false)
            page?.toggleLanguage(row: indexPath.row, in: self)
        }
    }

    let engine: AnimationEngine
    let window: View
    /// The outer scroll view holding the scrolls (`history`).
    package let scrollView: ScrollView
    package let scrolls: [ScrollHeaderView]
    package private(set) var sheet: Sheet?
    /// Whether a scroll is opening or closing (taps are ignored then).
    package private(set) var isAnimating = false
    /// Errors from steps run in completions (reported by the scene).
    var onError: ((any Error) -> Void)?

    package init(engine: AnimationEngine, periods: [HistoryPeriod] = HistoryPeriod.all) throws {
        self.engine = engine
        let size = HistoryMetrics.screen
        window = View(frame: Rect(origin: .zero, size: size), name: "window")
        window.backgroundColor = HistoryMetrics.backdrop
        scrollView = ScrollView(frame: Rect(x: 0, y: HistoryMetrics.barHeight, width: size.width, height: HistoryMetrics.viewportHeight), name: "history")
        scrolls = periods.enumerated().map { ScrollHeaderView(period: $1, index: $0) }
        for (k, scroll) in scrolls.enumerated() {
            scroll.frame = Rect(x: 0, y: Double(k) * HistoryMetrics.scrollHeight, width: size.width, height: HistoryMetrics.scrollHeight)
            try scrollView.addSubview(scroll)
        }
        scrollView.contentSize = Size(width: size.width, height: Double(scrolls.count) * HistoryMetrics.scrollHeight)
        try window.addSubview(scrollView)
        try window.addSubview(HistoryPage.navigationBar(title: "History", subtitle: "歴史"))
    }

    /// The bar at the top: status bar and a title, as the app's navigation bar.
    static func navigationBar(title: String, subtitle: String) throws -> View {
        let bar = View(frame: Rect(x: 0, y: 0, width: HistoryMetrics.screen.width, height: HistoryMetrics.barHeight), name: "navigationBar")
        bar.backgroundColor = HistoryMetrics.bar
        try bar.addSubview(Label(text: "\(title)  \(subtitle)", style: TextStyle(font: .boldSystem(size: 17), color: HistoryMetrics.paper, alignment: .center),
                                 frame: Rect(x: 40, y: 20, width: HistoryMetrics.screen.width - 80, height: 44), name: "title"))
        return bar
    }

    /// The content's height (points) with the scrolls closed but the open one, whose sheet adds `sheetHeight`.
    package func contentHeight(sheetHeight: Double) -> Double { Double(scrolls.count) * HistoryMetrics.scrollHeight + sheetHeight }

    /// The offset the outer scroll view can show for `y` with content of `height`: 0…(height − viewport).
    static func clampedOffset(_ y: Double, contentHeight height: Double) -> Double {
        min(max(0, y), max(0, height - HistoryMetrics.viewportHeight))
    }

    // MARK: Taps

    /// A tap on scroll `index`: opens it, closes it when it is the open one, or closes the open one and
    /// then opens it with the outer offset that brings it to the top. Ignored while one is animating.
    package func tapScroll(_ index: Int) throws {
        guard !isAnimating, scrolls.indices.contains(index) else { return }
        if let sheet {
            let switching = sheet.index != index
            close { [weak self] in
                guard let self, switching else { return }
                do { try self.open(index, scrollToTop: true) } catch { self.onError?(error) }
            }
        } else {
            try open(index, scrollToTop: false)
        }
    }

    /// A tap on event `row` of the open scroll (nothing when none is open or the row does not exist).
    func tapEvent(_ row: Int) {
        guard let sheet, row >= 0, row < sheet.period.events.count else { return }
        sheet.table.tapRow(at: IndexPath(row: row, section: 0))
    }

    // MARK: Opening and closing

    /// Unrolls scroll `index`: its sheet's height grows from 0 while the paper slides out from under the
    /// roll, and the scrolls below move down by the sheet's height, all on one 0.4 s ease-in-ease-out.
    /// With `scrollToTop`, the outer offset moves on the same timing to put the scroll at the top
    /// (clamped to the content).
    /// `duration` 0 opens at once (a scene's starting state).
    package func open(_ index: Int, scrollToTop: Bool, duration: Double = HistoryMetrics.openDuration) throws {
        let sheet = try Sheet(index: index, period: scrolls[index].period, engine: engine)
        sheet.page = self
        let header = scrolls[index]
        let height = sheet.height
        ViewChangeObservation.withoutObserver {
            sheet.container.frame = Rect(x: 0, y: header.frame.maxY, width: HistoryMetrics.screen.width, height: 0)
            sheet.layoutPaper(top: -height)
        }
        // Behind every scroll: the paper comes out from under its roll.
        try scrollView.insertSubview(sheet.container, at: 0)
        try ViewChangeObservation.withoutObserver { try sheet.table.reloadData() }
        self.sheet = sheet
        isAnimating = true
        let newHeight = contentHeight(sheetHeight: height)
        scrollView.contentSize.height = newHeight
        let offset = scrollToTop ? HistoryPage.clampedOffset(header.frame.minY, contentHeight: newHeight) : scrollView.contentOffset.y
        engine.animate(duration: duration, animations: {
            sheet.container.frame = Rect(x: 0, y: header.frame.maxY, width: HistoryMetrics.screen.width, height: height)
            sheet.layoutPaper(top: 0)
            for below in self.scrolls[(index + 1)...] { below.frame.origin.y += height }
            if offset != self.scrollView.contentOffset.y { self.scrollView.contentOffset.y = offset }
        }, completion: { [weak self] _ in self?.isAnimating = false })
    }

    /// Rolls the open sheet back up (the reverse of ``open(_:scrollToTop:)``), keeping the outer offset
    /// inside the shorter content; `then` runs when it has closed.
    func close(then: (() -> Void)? = nil) {
        guard let sheet else { then?(); return }
        let height = sheet.height
        let newHeight = contentHeight(sheetHeight: 0)
        let offset = HistoryPage.clampedOffset(scrollView.contentOffset.y, contentHeight: newHeight)
        isAnimating = true
        engine.animate(duration: HistoryMetrics.openDuration, animations: {
            sheet.container.frame.size.height = 0
            sheet.layoutPaper(top: -height)
            for below in self.scrolls[(sheet.index + 1)...] { below.frame.origin.y -= height }
            if offset != self.scrollView.contentOffset.y { self.scrollView.contentOffset.y = offset }
        }, completion: { [weak self] _ in
            guard let self else { return }
            sheet.container.removeFromSuperview()
            self.sheet = nil
            self.scrollView.contentSize.height = newHeight
            self.isAnimating = false
            then?()
        })
    }

    // MARK: Languages

    /// Switches event `row` of `sheet` between English and Japanese: the row takes the measured height
    /// of the new text with the table's height-only update, and the table, the sheet, its bottom roll and
    /// every scroll below move by the difference on the same timing (the table's update duration).
    func toggleLanguage(row: Int, in sheet: Sheet) {
        let before = sheet.height
        sheet.languages[row] = sheet.languages[row] == .english ? .japanese : .english
        if let cell = sheet.table.cellForRow(at: IndexPath(row: row, section: 0)) {
            cell.textLabel.text = sheet.period.events[row].text(in: sheet.languages[row])
            cell.layoutSubviews()
        }
        let delta = sheet.height - before
        scrollView.contentSize.height += delta
        engine.animate(duration: sheet.table.updateAnimationDuration, animations: {
            do { try sheet.table.performBatchUpdates(nil) } catch { self.onError?(error) }
            sheet.container.frame.size.height += delta
            sheet.layoutPaper(top: 0)
            for below in self.scrolls[(sheet.index + 1)...] { below.frame.origin.y += delta }
        })
    }
}
