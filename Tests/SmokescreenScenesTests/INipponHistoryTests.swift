import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest
import SmokescreenScenes

/// What iNippon's History page promises (seed 000), checked on the presented tree of every frame.
final class INipponHistoryTests: XCTestCase {
    struct Frames {
        let times: [Double]
        let trees: [ViewDescription]
        /// The node called `name` in frame `index`, or nil.
        func node(_ name: String, _ index: Int) -> ViewDescription? {
            func find(_ n: ViewDescription) -> ViewDescription? {
                if n.name == name { return n }
                for child in n.subviews { if let hit = find(child) { return hit } }
                return nil
            }
            return find(trees[index])
        }
        /// The first frame at or after `time`.
        func index(at time: Double) -> Int { times.firstIndex { $0 >= time - 1e-9 } ?? times.count - 1 }
    }

    private func frames(_ scene: INipponTransition.Scene, fps: Double = 20) throws -> Frames {
        var settings = RenderSettings(scale: 1, fps: fps, assetsDirectory: "/nonexistent")
        settings.describesFrames = true
        let rendered = try INipponTransition(scene).render(settings)
        XCTAssertEqual(rendered.frameDescriptions.count, rendered.sequence.times.count)
        return Frames(times: rendered.sequence.times, trees: rendered.frameDescriptions)
    }

    private let bar = HistoryMetrics.barHeight, row = HistoryMetrics.scrollHeight
    private var periods: Int { HistoryPeriod.all.count }

    /// The height (points) the sheet of `period` has with every event in English.
    private func sheetHeight(_ period: Int, japanese: Set<Int> = []) throws -> Double {
        try HistoryPeriod.all[period].events.enumerated().reduce(HistoryMetrics.bottomRollHeight) { sum, item in
            sum + (try EventCell.height(of: japanese.contains(item.offset) ? item.element.japanese : item.element.english,
                                        rowWidth: HistoryMetrics.paperWidth))
        }
    }

    func testTheContentIsTenPeriodsOrMoreWithThreeToEightEventsInBothLanguages() {
        XCTAssertGreaterThanOrEqual(HistoryPeriod.all.count, 10)
        XCTAssertEqual(HistoryPeriod.all.first?.english, "Jōmon")
        XCTAssertEqual(HistoryPeriod.all.last?.english, "Heisei")
        for period in HistoryPeriod.all {
            XCTAssert((3...8).contains(period.events.count), period.english)
            for event in period.events {
                XCTAssertFalse(event.english.isEmpty)
                XCTAssert(event.japanese.unicodeScalars.contains { (0x3040...0x9FFF).contains($0.value) }, event.japanese)
            }
        }
    }

    func testOpeningUnrollsTheSheetWhileEveryScrollBelowMovesOnTheSameTiming() throws {
        let f = try frames(.open)
        let open = INipponTransition.openPeriod
        let full = try sheetHeight(open)
        var heights: [Double] = []
        for k in f.times.indices {
            let opened = try XCTUnwrap(f.node("scroll-\(open)", k))
            XCTAssertEqual(opened.frame[1], bar + Double(open) * row, "the tapped scroll stays, frame \(k)")
            guard let sheet = f.node("sheet-\(open)", k) else {
                XCTAssertLessThan(f.times[k], INipponTransition.Timeline.firstTap + 1e-9, "no sheet before the tap")
                continue
            }
            let h = sheet.frame[3]
            heights.append(h)
            // Just under the roll, as tall as everything below has moved: nothing overlaps, no gap.
            XCTAssertEqual(sheet.frame[1], opened.frame[1] + row, accuracy: 1e-9)
            for below in (open + 1)..<periods {
                let scroll = try XCTUnwrap(f.node("scroll-\(below)", k))
                XCTAssertEqual(scroll.frame[1], bar + Double(below) * row + h, accuracy: 1e-6, "scroll \(below), frame \(k)")
            }
            // The paper slides down from behind the roll: its bottom is the sheet's bottom.
            let paper = try XCTUnwrap(f.node("paper-\(open)", k))
            XCTAssertEqual(paper.frame[1] + paper.frame[3], sheet.frame[1] + h, accuracy: 1e-6)
            XCTAssertEqual(paper.frame[3], full, accuracy: 1e-9)
        }
        XCTAssertEqual(heights.first ?? -1, 0, accuracy: 1e-9, "starts closed")
        XCTAssertEqual(heights.last ?? -1, full, accuracy: 1e-9, "ends open")
        XCTAssertEqual(heights, heights.sorted(), "only grows")
        // Ease-in-ease-out is symmetric: half way in time, half way in height.
        let middle = f.index(at: INipponTransition.Timeline.firstTap + HistoryMetrics.openDuration / 2)
        XCTAssertEqual(try XCTUnwrap(f.node("sheet-\(open)", middle)).frame[3], full / 2, accuracy: 1e-3)
        XCTAssertEqual(f.times.last ?? 0, INipponTransition.Timeline.firstTap + HistoryMetrics.openDuration, accuracy: 1e-9)
    }

    func testClosingRollsTheSheetBackAndTheScrollsReturn() throws {
        let f = try frames(.close)
        let open = INipponTransition.openPeriod
        let full = try sheetHeight(open)
        XCTAssertEqual(try XCTUnwrap(f.node("sheet-\(open)", 0)).frame[3], full, accuracy: 1e-9)
        let middle = f.index(at: INipponTransition.Timeline.firstTap + HistoryMetrics.openDuration / 2)
        let h = try XCTUnwrap(f.node("sheet-\(open)", middle)).frame[3]
        XCTAssertEqual(h, full / 2, accuracy: 1e-3)
        XCTAssertEqual(try XCTUnwrap(f.node("scroll-\(open + 1)", middle)).frame[1], bar + Double(open + 1) * row + h, accuracy: 1e-6)
        let last = f.times.count - 1
        XCTAssertNil(f.node("sheet-\(open)", last), "removed once closed")
        for k in 0..<periods {
            XCTAssertEqual(try XCTUnwrap(f.node("scroll-\(k)", last)).frame[1], bar + Double(k) * row, accuracy: 1e-9)
        }
    }

    func testSwitchingClosesFirstThenOpensAndPutsTheTappedScrollAtTheTop() throws {
        let f = try frames(.switchScroll)
        let (first, second) = (INipponTransition.switchOpen, INipponTransition.switchTapped)
        let closed = INipponTransition.Timeline.firstTap + HistoryMetrics.openDuration
        // Kamakura starts partly off screen: its top 24 pt above the bottom.
        XCTAssertEqual(try XCTUnwrap(f.node("scroll-\(second)", 0)).frame[1], HistoryMetrics.screen.height - 24, accuracy: 1e-9)
        for k in f.times.indices {
            let t = f.times[k]
            let old = f.node("sheet-\(first)", k), new = f.node("sheet-\(second)", k)
            if t < closed - 1e-9 {
                XCTAssertNotNil(old, "Heian still closing at \(t) s")
                XCTAssertNil(new, "Kamakura waits for Heian to close, at \(t) s")
            } else if t > closed + 1e-9 {
                XCTAssertNil(old, "Heian closed at \(t) s")
                XCTAssertNotNil(new, "Kamakura opening at \(t) s")
            }
        }
        XCTAssertEqual(f.times.last ?? 0, closed + HistoryMetrics.openDuration, accuracy: 1e-9)
        let last = f.times.count - 1
        let history = try XCTUnwrap(f.node("history", last))
        let content = Double(periods) * row + (try sheetHeight(second))
        let expected = min(Double(second) * row, content - HistoryMetrics.viewportHeight)
        XCTAssertEqual(history.contentOffset?[1] ?? -1, expected, accuracy: 1e-9)
        XCTAssertEqual(expected, Double(second) * row, "not clamped: Kamakura reaches the top")
        XCTAssertEqual(try XCTUnwrap(f.node("scroll-\(second)", last)).frame[1], bar, accuracy: 1e-9, "at the top of the screen")
    }

    func testOpeningTheLastScrollClampsTheOffsetToTheContent() throws {
        let engine = AnimationEngine(fps: 20)
        let page = try HistoryPage(engine: engine)
        try page.open(periods - 2, scrollToTop: false, duration: 0)
        engine.advance(to: 0.05)
        try page.tapScroll(periods - 1)
        engine.advance(to: 2)
        let sheet = try XCTUnwrap(page.sheet)
        XCTAssertEqual(sheet.index, periods - 1)
        let content = page.contentHeight(sheetHeight: sheet.height)
        XCTAssertEqual(page.scrollView.contentSize.height, content)
        XCTAssertEqual(page.scrollView.contentOffset.y, content - HistoryMetrics.viewportHeight, accuracy: 1e-9)
        XCTAssertGreaterThan(page.scrolls[periods - 1].frame.minY, page.scrollView.contentOffset.y, "clamped: the last scroll cannot reach the top")
        // A tap while a scroll closes or opens is ignored, as the app's were.
        try page.tapScroll(0)
        XCTAssertTrue(page.isAnimating)
        try page.tapScroll(1)
        engine.advance(to: 4)
        XCTAssertEqual(page.sheet?.index, 0, "the first tap switched to Jōmon; the second, during the switch, was ignored")
        XCTAssertEqual(page.scrollView.contentOffset.y, 0, accuracy: 1e-9, "Jōmon at the top")
    }

    func testALanguageToggleGivesTheRowTheMeasuredHeightAndMovesEverythingBelowByTheDifference() throws {
        let f = try frames(.language)
        let period = INipponTransition.languagePeriod
        let events = HistoryPeriod.all[period].events
        func height(_ r: Int, japanese: Bool) throws -> Double {
            try EventCell.height(of: japanese ? events[r].japanese : events[r].english, rowWidth: HistoryMetrics.paperWidth)
        }
        func rows(_ k: Int) throws -> [ViewDescription] {
            try (0..<events.count).map { try XCTUnwrap(f.node("event-\(period)-\($0)", k)) }
        }
        let start = try rows(0)
        let below0 = try XCTUnwrap(f.node("scroll-\(period + 1)", 0)).frame[1]
        // After the first toggle has ended (0.2 + 0.3 s): row 0 in Japanese.
        let k = f.index(at: 0.55)
        let after = try rows(k)
        let delta = try height(0, japanese: true) - height(0, japanese: false)
        XCTAssertEqual(after[0].frame[3], try height(0, japanese: true), accuracy: 1e-9)
        for r in 1..<events.count { XCTAssertEqual(after[r].frame[1], start[r].frame[1] + delta, accuracy: 1e-9, "row \(r)") }
        XCTAssertEqual(try XCTUnwrap(f.node("scroll-\(period + 1)", k)).frame[1], below0 + delta, accuracy: 1e-9)
        // The label is the measured text, at the top of the row.
        let label = try XCTUnwrap(f.node("event-\(period)-0", k)?.subviews.first { $0.name == "contentView" }?.subviews.first { $0.name == "textLabel" })
        XCTAssertEqual(label.frame[3] + HistoryMetrics.eventInsets.top + HistoryMetrics.eventInsets.bottom, after[0].frame[3], accuracy: 1e-9)
        XCTAssertEqual(label.text, events[0].japanese)
        // Mid-way through the long row's toggle, the row, the rows below and the scroll below move together.
        let mid = f.index(at: 0.85)
        let midRows = try rows(mid)
        let grown = midRows[1].frame[3] - after[1].frame[3]
        let change = try height(1, japanese: true) - height(1, japanese: false)
        XCTAssertGreaterThan(abs(grown), 1, "on its way")
        XCTAssertLessThan(abs(grown), abs(change))
        XCTAssertEqual(grown.sign, change.sign)
        XCTAssertEqual(midRows[2].frame[1], after[2].frame[1] + grown, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(f.node("scroll-\(period + 1)", mid)).frame[1], below0 + delta + grown, accuracy: 1e-6)
        // At the end (two toggles of row 1 overlapping the toggle of row 2): 0 and 2 in Japanese, 1 back in English.
        let last = f.times.count - 1
        let end = try rows(last)
        var y = end[0].frame[1]
        for (r, japanese) in [(0, true), (1, false), (2, true), (3, false)] where r < events.count {
            XCTAssertEqual(end[r].frame[1], y, accuracy: 1e-9, "row \(r) starts where the one above ends")
            XCTAssertEqual(end[r].frame[3], try height(r, japanese: japanese), accuracy: 1e-9, "row \(r)")
            y += end[r].frame[3]
        }
        let sheet = try XCTUnwrap(f.node("sheet-\(period)", last))
        XCTAssertEqual(sheet.frame[3], try sheetHeight(period, japanese: [0, 2]), accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(f.node("scroll-\(period + 1)", last)).frame[1], sheet.frame[1] + sheet.frame[3], accuracy: 1e-9)
        // The long event is much taller than a short one in either language (Japanese sets it in fewer,
        // taller lines: Noto Sans CJK JP's 1.448 em, so the ratio is lower than in English).
        XCTAssertGreaterThan(try height(1, japanese: true), try height(0, japanese: true) * 1.4)
        // (Inter is narrower than DejaVu Sans was: the English one now takes fewer lines, 111 pt against 57.)
        XCTAssertGreaterThan(try height(1, japanese: false), try height(0, japanese: false) * 1.8)
    }

    func testTheSectionedTableFollowsTheSeedsSteps() throws {
        let f = try frames(.sectioned)
        let tl = INipponTransition.Timeline.self
        // After the pinches: the first section's rows are tall and the second header is below the screen.
        let pinched = f.index(at: tl.scrollDown - 0.05)
        for r in 0..<2 { XCTAssertEqual(try XCTUnwrap(f.node("event-0-\(r)", pinched)).frame[3], tl.pinchedHeight, accuracy: 1e-9) }
        let second = try XCTUnwrap(f.node("event-0-1", pinched))
        XCTAssertGreaterThanOrEqual(second.frame[1] + second.frame[3], HistoryMetrics.screen.height, "row 2 and the second header are below the screen")
        XCTAssertNil(f.node("scroll-1", pinched), "the second header is off screen (a table makes only the visible ones)")
        let scrolling = f.index(at: tl.scrollDown + 0.15)
        XCTAssertEqual(try XCTUnwrap(f.node("event-0-2", scrolling)).frame[3], tl.pinchedHeight, accuracy: 1e-9)
        // Scrolled down: the second header at the top of the table, just before the tap.
        let before = f.index(at: tl.tapHeader) - 1
        XCTAssertEqual(try XCTUnwrap(f.node("scroll-1", before)).frame[1], bar, accuracy: 1e-9)
        // After the tap: section 0 closed, section 1 open, and the tapped header is off the top.
        let last = f.times.count - 1
        XCTAssertNil(f.node("event-0-0", last))
        let table = try XCTUnwrap(f.node("table", last))
        let offset = try XCTUnwrap(table.contentOffset?[1])
        let sectionOneRows = try (0..<HistoryPeriod.all[1].events.count).reduce(0.0) {
            $0 + (try EventCell.height(of: HistoryPeriod.all[1].events[$1].english, rowWidth: HistoryMetrics.screen.width))
        }
        let content = Double(periods) * row + sectionOneRows
        XCTAssertEqual(offset, content - HistoryMetrics.viewportHeight, accuracy: 1e-9, "clamped to the shorter content")
        XCTAssertGreaterThan(offset, 2 * row + sectionOneRows, "the opened section is above the visible area")
    }

    func testEveryHistorySceneIsListed() {
        for scene in INipponTransition.Scene.allCases { XCTAssertNotNil(TransitionCatalog.transition(named: scene.rawValue)) }
    }
}
