import Foundation
import SmokescreenScenes
import SmokescreenTesting
import SnapshotView
import Typesetting
import TransitionCompositor
import XCTest

/// Every frame of each built-in transition against golden frames checked in beside this file, under
/// `__Snapshots__/TransitionGoldenTests/<transition name>/frame_0000.png …`.
///
/// The goldens are @1x at 10 fps (a frame every 0.1 s and one at the exact end), which keeps them small and
/// the test fast in debug builds. After an intended change to a transition or to drawing, re-record with
/// `SMOKESCREEN_RECORD=all swift test --filter SmokescreenScenesGoldenTests`, look at the frames, and check them in.
final class TransitionGoldenTests: XCTestCase {
    /// This file's path: the goldens are found from it (`#filePath`, as the assertions do).
    static let testFile = "\(#filePath)"
    /// The repository's `assets/` folder, found from this file so that it works from any directory.
    static let assets = URL(fileURLWithPath: testFile).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("assets").path

    /// @1x at 10 fps, with the transition's own durations unless `durationsFile` is given.
    static func settings(durationsFile: String? = nil) -> RenderSettings {
        RenderSettings(scale: 1, fps: 10, assetsDirectory: assets, durationsFile: durationsFile)
    }

    /// The golden sets of this file, by transition name; each is the transition's name.
    static let covered = ["vesper-timeline-to-detail", "vesper-detail-to-timeline", "reference", "vesper-detail-to-picture", "vesper-picture-to-detail"]
        + TableTransition.Scene.allCases.map(\.rawValue)  // TableGoldenTests, below
        + NavigationTransition.Scene.allCases.map(\.rawValue)  // NavigationGoldenTests, below
        + ["vesper-detail-to-timeline-interactive"]
        + INipponTransition.Scene.allCases.map(\.rawValue)  // INipponGoldenTests, below
        + INipponPagesTransition.Scene.allCases.map(\.rawValue)  // INipponPagesGoldenTests, below

    /// The example of docs/golden-testing.md.
    func testVesperTimelineToDetail() {
        let settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: Self.assets)
        assertTransition(VesperTransition(.timelineToDetail), settings: settings, matchGoldenNamed: "vesper-timeline-to-detail")
    }

    func testVesperDetailToTimeline() {
        assertTransition(VesperTransition(.detailToTimeline), settings: Self.settings(), matchGoldenNamed: "vesper-detail-to-timeline")
    }

    func testVesperDetailToPicture() {
        assertTransition(VesperTransition(.detailToPicture), settings: Self.settings(), matchGoldenNamed: "vesper-detail-to-picture")
    }

    func testVesperPictureToDetail() {
        assertTransition(VesperTransition(.pictureToDetail), settings: Self.settings(), matchGoldenNamed: "vesper-picture-to-detail")
    }

    func testReference() {
        assertTransition(ReferenceTransition(), settings: Self.settings(), matchGoldenNamed: "reference")
    }

    /// A transition added to the catalogue needs a golden test here too.
    func testEveryBuiltInTransitionHasGoldens() {
        XCTAssertEqual(TransitionCatalog.all.map(\.name).sorted(), Self.covered.sorted())
    }
}

/// The table scenes of seed 001: a few frames each (@1x, at 20 fps), at the moments that show what each
/// scene is about — mid-update for every style, mid-sort, the control row arriving and moving, checks
/// appearing, the floating button over scrolled rows and past the top.
final class TableGoldenTests: XCTestCase {
    /// The frames checked, by scene: times in seconds (multiples of 1/20); `.infinity` is the last frame.
    static let times: [TableTransition.Scene: [Double]] = [
        .rowStyles: [0.35, 1.55, 2.15, 2.75, 3.35, .infinity],
        .sortPlays: [0.45, 1.15, 1.5, 2.15, .infinity],
        .batchMixed: [0, 0.4, 0.45, 0.5, .infinity],
        .controlRow: [0.35, 0.6, 1.15, 1.95, .infinity],
        .multipleSelection: [0.3, 0.85, 1.5, .infinity],
        .floatingView: [0, 0.35, 0.6, 1.45, 1.6, 1.75, 2.0, .infinity],
    ]

    private func check(_ scene: TableTransition.Scene, file: StaticString = #filePath, line: UInt = #line) throws {
        try checkFrames(of: TableTransition(scene), at: Self.times[scene] ?? [], file: file, line: line)
    }

    func testRowStyles() throws { try check(.rowStyles) }
    func testSortPlays() throws { try check(.sortPlays) }
    func testBatchMixed() throws { try check(.batchMixed) }
    func testControlRow() throws { try check(.controlRow) }
    func testMultipleSelection() throws { try check(.multipleSelection) }
    func testFloatingView() throws { try check(.floatingView) }
}

/// Checks the frames of `transition` at `times` (seconds, multiples of 1/20; `.infinity`: the last
/// frame), rendered @1x at 20 fps, against the golden set named after it.
func checkFrames(of transition: any Transition, at times: [Double], appearance: Appearance = .light,
                 textSize: (name: String, size: Font.ContentSize)? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
    // Other traits' goldens are sets of their own: NAME-dark, NAME-AX2.
    var name = appearance == .light ? transition.name : "\(transition.name)-\(appearance.rawValue)"
    if let textSize { name += "-\(textSize.name)" }
    // Another machine's part of a sharded run (SMOKESCREEN_GOLDEN_SHARD): not even rendered.
    guard try GoldenShard.includes(name) else { return }
    var settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: TransitionGoldenTests.assets)
    settings.appearance = appearance
    settings.textSize = textSize?.size ?? .large
    var sequence = try transition.render(settings).sequence
    var indices: [Int] = []
    for time in times {
        let index = time == .infinity ? sequence.times.count - 1 : sequence.times.firstIndex { abs($0 - time) < 1e-9 }
        indices.append(try XCTUnwrap(index, "\(transition.name) has no frame at \(time) s", file: file, line: line))
    }
    sequence.times = indices.map { sequence.times[$0] }
    sequence.nodes = indices.map { sequence.nodes[$0] }
    assertFrames(sequence, matchGoldenNamed: name, file: file, line: line)
}

/// The table and navigation built-ins in the dark appearance (`--appearance dark`): iOS's dark system
/// colours, the white status bar; and at Dynamic Type sizes (`--text-size`); a few frames each, looked at
/// @2x before they were recorded.
final class TraitGoldenTests: XCTestCase {
    func testTablesAndNavigationInTheDark() throws {
        try checkFrames(of: NavigationTransition(.push), at: [0.3, 0.4, .infinity], appearance: .dark)
        try checkFrames(of: TableTransition(.sortPlays), at: [0.45, 1.5, .infinity], appearance: .dark)
        try checkFrames(of: TableTransition(.controlRow), at: [0.6, 1.15], appearance: .dark)
    }

    func testTablesAndNavigationAtOtherTextSizes() throws {
        try checkFrames(of: NavigationTransition(.push), at: [0, 0.4, .infinity], textSize: ("AX2", .accessibilityLarge))
        try checkFrames(of: TableTransition(.sortPlays), at: [0.45, 1.5], textSize: ("xSmall", .extraSmall))
        try checkFrames(of: TableTransition(.rowStyles), at: [1.55], appearance: .dark, textSize: ("AX5", .accessibilityExtraExtraExtraLarge))
    }
}

/// The navigation built-ins: push and pop at their middle, the swipes while the finger drives them and
/// after the release, and the cancelled deselections when the back button brings the list back.
final class NavigationGoldenTests: XCTestCase {
    static let times: [NavigationTransition.Scene: [Double]] = [
        .push: [0.3, 0.4, .infinity],
        .pop: [0.3, 0.4, .infinity],
        .popInteractiveFinish: [0.5, 0.9, .infinity],
        .popInteractiveCancel: [0.5, 0.8, .infinity],
        .deselectDefaultFinish: [0.5, 0.9, .infinity],
        .deselectDefaultCancel: [0.5, 1.6, .infinity],
        .deselectNaiveFinish: [0.5, 0.9, .infinity],
        .deselectNaiveCancel: [0.5, 1.6, .infinity],
        .deselectSmartFinish: [0.5, 0.9, .infinity],
        .deselectSmartCancel: [0.5, 1.6, .infinity],
    ]

    /// Vesper's pop scrubbed by the swipe (40 % and 70 % of the way: every phase at its own point), then
    /// finishing.
    func testVesperInteractive() throws {
        try checkFrames(of: VesperTransition.detailToTimelineInteractive, at: [0.2, 0.5, 0.8, 0.9, .infinity])
    }

    func testEveryNavigationBuiltIn() throws {
        for scene in NavigationTransition.Scene.allCases {
            try checkFrames(of: NavigationTransition(scene), at: Self.times[scene] ?? [])
        }
    }
}

/// iNippon's History page (seed 000): each scroll half unrolled and rolled, the close and the open of a
/// switch at their middle, rows changing language, and the sectioned table before and while its content
/// jumps.
final class INipponGoldenTests: XCTestCase {
    static let times: [INipponTransition.Scene: [Double]] = [
        .open: [0.35, 0.45, .infinity],
        .close: [0.35, 0.45, .infinity],
        .switchScroll: [0, 0.4, 0.8, .infinity],
        .language: [0.35, 0.85, 1.3, .infinity],
        .sectioned: [1.45, 2.05, 2.2, 2.3, .infinity],
    ]

    func testEveryHistoryBuiltIn() throws {
        for scene in INipponTransition.Scene.allCases {
            try checkFrames(of: INipponTransition(scene), at: Self.times[scene] ?? [])
        }
    }
}

/// iNippon's pages (seed 002): the curl at its start, middle and end, back, under the finger and falling
/// back, the pages sliding, the flicks (the refused one changes nothing), and page 0 that does not turn back.
final class INipponPagesGoldenTests: XCTestCase {
    static let times: [INipponPagesTransition.Scene: [Double]] = [
        .curl: [0.3, 0.4, 0.5, .infinity],
        .curlBack: [0.3, 0.4, 0.5, .infinity],
        .curlInteractive: [0.35, 0.5, 0.75, 1.6, 1.9, .infinity],
        .scroll: [0.3, 0.95, .infinity],
        .fastFlicks: [0.25, 0.65, 1.0, .infinity],
        .firstPage: [0.3, .infinity],
    ]

    func testEveryPagesBuiltIn() throws {
        for scene in INipponPagesTransition.Scene.allCases {
            try checkFrames(of: INipponPagesTransition(scene), at: Self.times[scene] ?? [])
        }
    }
}
