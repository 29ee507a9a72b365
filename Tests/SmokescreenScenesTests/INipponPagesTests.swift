import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest
@testable import Containers
@testable import SmokescreenScenes

/// iNippon's pages (seed 002): the window, refused turns, and the scenes' gestures.
final class INipponPagesTests: XCTestCase {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("assets").path

    func run(_ scene: INipponPagesTransition.Scene) throws -> (INipponPagesTransition.Record, RenderedTransition) {
        let record = INipponPagesTransition.Record()
        let rendered = try INipponPagesTransition(scene).render(RenderSettings(scale: 1, fps: 20, assetsDirectory: Self.assets), record: record)
        return (record, rendered)
    }

    func testTheCurlSceneTurnsOnePage() throws {
        let (record, rendered) = try run(.curl)
        XCTAssertEqual(record.accepted, [true])
        XCTAssertEqual(record.turns.map(\.to), [1])
        XCTAssertEqual(rendered.sequence.times.last ?? 0, 1.0, accuracy: 1e-9)
    }
}
