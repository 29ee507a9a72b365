import SmokescreenStage
import XCTest

/// `UICollectionView` with UIKit's names: the flow layout's geometry (derived by hand), reuse, headers,
/// batch updates, selection, a custom layout and a layout that pages a flick.
final class CollectionViewTests: XCTestCase {
    final class Tile: UICollectionViewCell {
        let label = UILabel()

        required init(frame: CGRect) {
            super.init(frame: frame)
            contentView.backgroundColor = .systemBlue
            contentView.addSubview(label)
        }

        required init?(coder: NSCoder) { nil }
    }

    final class Header: UICollectionReusableView {
        required init(frame: CGRect) {
            super.init(frame: frame)
            backgroundColor = .systemGray5
        }

        required init?(coder: NSCoder) { nil }
    }

    final class Items: NSObject, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
        var counts: [Int]
        var made = 0
        var selected: [IndexPath] = []
        var sizes: [IndexPath: CGSize] = [:]

        init(_ counts: [Int]) { self.counts = counts }

        func numberOfSections(in collectionView: UICollectionView) -> Int { counts.count }
        func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { counts[section] }
        func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
            made += 1
            let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "tile", for: indexPath) as! Tile
            cell.label.text = "\(indexPath.section).\(indexPath.item)"
            return cell
        }
        func collectionView(_ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
                            at indexPath: IndexPath) -> UICollectionReusableView {
            collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "header", for: indexPath)
        }
        func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                            sizeForItemAt indexPath: IndexPath) -> CGSize {
            sizes[indexPath] ?? (collectionViewLayout as! UICollectionViewFlowLayout).itemSize
        }
        func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) { selected.append(indexPath) }
    }

    private func makeGrid(_ items: Items, on stage: Stage, width: CGFloat = 200, height: CGFloat = 300,
                          configure: (UICollectionViewFlowLayout) -> Void = { _ in }) -> UICollectionView {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 60, height: 60)
        layout.sectionInset = UIEdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        configure(layout)
        let grid = UICollectionView(frame: CGRect(x: 0, y: 0, width: width, height: height), collectionViewLayout: layout)
        grid.register(Tile.self, forCellWithReuseIdentifier: "tile")
        grid.register(Header.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader, withReuseIdentifier: "header")
        grid.dataSource = items
        grid.delegate = items
        stage.window.addSubview(grid)
        grid.layoutIfNeeded()
        return grid
    }

    /// 180 points inside the insets take two 60-point items at 10 apart (three would need 200): the 50
    /// left over widens the gap to 60, so the items sit at x 10 and 130; a line of one is centred (x 70).
    func testTheFlowLayoutFillsLinesAndSharesTheSlack() throws {
        let stage = try makeStage(width: 200, height: 300)
        let items = Items([5])
        let grid = makeGrid(items, on: stage)
        let frames = (0..<5).map { grid.layoutAttributesForItem(at: IndexPath(item: $0, section: 0))?.frame }
        XCTAssertEqual(frames, [CGRect(x: 10, y: 10, width: 60, height: 60), CGRect(x: 130, y: 10, width: 60, height: 60),
                                CGRect(x: 10, y: 80, width: 60, height: 60), CGRect(x: 130, y: 80, width: 60, height: 60),
                                CGRect(x: 70, y: 150, width: 60, height: 60)])
        XCTAssertEqual(grid.contentSize, CGSize(width: 200, height: 220))
        XCTAssertEqual(grid.visibleCells.count, 5)
        XCTAssertEqual(grid.cellForItem(at: IndexPath(item: 3, section: 0))?.frame, frames[3])
        XCTAssertEqual(grid.indexPathForItem(at: CGPoint(x: 140, y: 100)), IndexPath(item: 3, section: 0))
        XCTAssertNil(grid.indexPathForItem(at: CGPoint(x: 100, y: 100)), "between items")
        XCTAssertEqual(stage.warnings, [])
    }

    /// Items of different heights in a line are centred across it; the line is as tall as the tallest.
    func testItemsAreCentredAcrossTheirLineAndHeadersComeFirst() throws {
        let stage = try makeStage(width: 200, height: 300)
        let items = Items([3])
        items.sizes[IndexPath(item: 0, section: 0)] = CGSize(width: 60, height: 100)
        let grid = makeGrid(items, on: stage) { $0.headerReferenceSize = CGSize(width: 0, height: 30) }
        XCTAssertEqual(grid.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))?.frame, CGRect(x: 10, y: 40, width: 60, height: 100))
        XCTAssertEqual(grid.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))?.frame, CGRect(x: 130, y: 60, width: 60, height: 60))
        XCTAssertEqual(grid.layoutAttributesForItem(at: IndexPath(item: 2, section: 0))?.frame, CGRect(x: 70, y: 150, width: 60, height: 60))
        let header = try XCTUnwrap(grid.supplementaryView(forElementKind: UICollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 0)))
        XCTAssertTrue(header is Header)
        XCTAssertEqual(header.frame, CGRect(x: 0, y: 0, width: 200, height: 30))
    }

    func testCellsAreReusedAsTheGridScrolls() throws {
        let stage = try makeStage(width: 200, height: 150)
        let items = Items([40])
        let grid = makeGrid(items, on: stage, height: 150)
        XCTAssertEqual(grid.indexPathsForVisibleItems.map(\.item), [0, 1, 2, 3], "two lines in 150 points (the third starts at 150)")
        let first = grid.cellForItem(at: IndexPath(item: 0, section: 0))
        grid.contentOffset = CGPoint(x: 0, y: 700)
        XCTAssertEqual(grid.indexPathsForVisibleItems.map(\.item), [20, 21, 22, 23], "lines at 710 and 780")
        XCTAssertTrue(grid.visibleCells.contains { $0 === first }, "reused")
        XCTAssertEqual(items.made, 8, "four cells, then four more asked for (reused)")
    }

    func testAnInsertMovesTheOthersAndFadesTheNewItemIn() throws {
        let stage = try makeStage(width: 200, height: 300)
        let items = Items([3])
        let grid = makeGrid(items, on: stage)
        let moved = try XCTUnwrap(grid.cellForItem(at: IndexPath(item: 1, section: 0)))
        var finished: Double?
        items.counts = [4]
        grid.performBatchUpdates({ grid.insertItems(at: [IndexPath(item: 0, section: 0)]) }, completion: { _ in finished = stage.time })
        let inserted = try XCTUnwrap(grid.cellForItem(at: IndexPath(item: 0, section: 0)))
        XCTAssertTrue(grid.cellForItem(at: IndexPath(item: 2, section: 0)) === moved, "item 1 is now 2, same cell")
        XCTAssertEqual(moved.frame.origin, CGPoint(x: 10, y: 80), "the model is the end")
        try stage.wait(0.15)
        let shown = try XCTUnwrap(moved.layer.presentation()?.frame)
        XCTAssertEqual(shown.minX, 70, accuracy: 1e-9, "half way from (130, 10) to (10, 80)")
        XCTAssertEqual(shown.minY, 45, accuracy: 1e-9)
        XCTAssertEqual(Double(inserted.layer.presentation()!.opacity), 0.5, accuracy: 1e-6)
        try stage.waitUntilIdle()
        XCTAssertEqual(finished ?? 0, 0.3, accuracy: 1e-9)
    }

    func testADeleteFadesTheItemOutAndAnInvalidUpdateReloads() throws {
        let stage = try makeStage(width: 200, height: 300)
        let items = Items([3])
        let grid = makeGrid(items, on: stage)
        let leaving = try XCTUnwrap(grid.cellForItem(at: IndexPath(item: 1, section: 0)))
        items.counts = [2]
        grid.deleteItems(at: [IndexPath(item: 1, section: 0)])
        XCTAssertTrue(leaving.superview === grid)
        XCTAssertEqual(leaving.alpha, 0)
        try stage.waitUntilIdle()
        XCTAssertNil(leaving.superview)
        XCTAssertEqual(grid.visibleCells.count, 2)
        items.counts = [7]
        grid.insertItems(at: [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(stage.warnings.count, 1)
        XCTAssertTrue(stage.warnings[0].contains("invalid number of items in section 0. The number of items contained in an existing section after the update (7) must be equal to the number of items contained in that section before the update (2)"),
                      stage.warnings[0])
        XCTAssertEqual(grid.numberOfItems(inSection: 0), 7)
    }

    func testATapSelectsAnItem() throws {
        let stage = try makeStage(width: 200, height: 300)
        let items = Items([4])
        let grid = makeGrid(items, on: stage)
        try stage.tap(at: CGPoint(x: 150, y: 100))
        XCTAssertEqual(items.selected, [IndexPath(item: 3, section: 0)])
        XCTAssertEqual(grid.indexPathsForSelectedItems, [IndexPath(item: 3, section: 0)])
        XCTAssertTrue(grid.cellForItem(at: IndexPath(item: 3, section: 0))!.isSelected)
    }

    /// A layout of one's own: a horizontal strip of full-height pages that snaps a flick to a page.
    final class PagingStrip: UICollectionViewLayout {
        var attributes: [UICollectionViewLayoutAttributes] = []
        var pageWidth: CGFloat { collectionView?.bounds.width ?? 0 }

        override func prepare() {
            guard let collectionView else { return }
            attributes = (0..<collectionView.numberOfItems(inSection: 0)).map { item in
                let a = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: 0))
                a.frame = CGRect(x: CGFloat(item) * pageWidth + 10, y: 10, width: pageWidth - 20, height: collectionView.bounds.height - 20)
                return a
            }
        }
        override var collectionViewContentSize: CGSize {
            CGSize(width: CGFloat(attributes.count) * pageWidth, height: collectionView?.bounds.height ?? 0)
        }
        override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? { attributes.filter { $0.frame.intersects(rect) } }
        override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { attributes[indexPath.item] }
        override func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint, withScrollingVelocity velocity: CGPoint) -> CGPoint {
            CGPoint(x: (proposedContentOffset.x / pageWidth).rounded() * pageWidth, y: 0)
        }
    }

    func testACustomLayoutPlacesItemsAndSnapsAFlick() throws {
        let stage = try makeStage(width: 100, height: 80)
        let items = Items([5])
        let grid = UICollectionView(frame: stage.window.bounds, collectionViewLayout: PagingStrip())
        grid.register(Tile.self, forCellWithReuseIdentifier: "tile")
        grid.dataSource = items
        stage.window.addSubview(grid)
        grid.layoutIfNeeded()
        XCTAssertEqual(grid.contentSize, CGSize(width: 500, height: 80))
        XCTAssertEqual(grid.visibleCells.map(\.frame), [CGRect(x: 10, y: 10, width: 80, height: 60)])
        try stage.pan(from: CGPoint(x: 80, y: 40), to: CGPoint(x: 40, y: 40), duration: 0.2, releaseVelocity: CGVector(dx: -300, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(grid.contentOffset.x.truncatingRemainder(dividingBy: 100), 0, "on a page")
        XCTAssertGreaterThan(grid.contentOffset.x, 0)
        XCTAssertEqual(grid.indexPathsForVisibleItems, [IndexPath(item: Int(grid.contentOffset.x / 100), section: 0)])
    }
}
