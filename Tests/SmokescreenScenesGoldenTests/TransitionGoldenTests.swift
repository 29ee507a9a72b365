import Foundation
import SmokescreenScenes
import SmokescreenTesting
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

    /// The README's example.
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
