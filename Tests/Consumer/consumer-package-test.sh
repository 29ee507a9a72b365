#!/usr/bin/env bash
# A package that depends on this one by its version (`from: "<version>"`, SwiftPM resolving the release tag
# of a clone of this repository) and golden-tests a built-in transition with SmokescreenTesting, importing
# Foundation next to every library module without ambiguity: what a user's project does. A second test
# file of it uses `import Smokescreen` and the swift-snapshot-testing strategies of
# `SmokescreenSnapshotTesting`: `assertSnapshot` of a view tree and of a scene transition against this
# repository's references (Tests/SmokescreenSnapshotTestingTests/__Snapshots__), and a built-in transition
# recorded and compared with no assets folder given (found in this checkout).
#
#   Tests/Consumer/consumer-package-test.sh
#
# It builds this package again (a debug build, in its own scratch folder: about 100 s of two cores' time),
# so it is a step of its own: `.ci/run` runs it beside the quick start's commands, where a core would
# otherwise wait, and `ConsumerPackageTests` runs it when SMOKESCREEN_CONSUMER_TEST=1. Needs git and
# Swift; writes only under a temporary folder, removed at the end. Exits non-zero, saying why, when
# anything fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
say() { echo "consumer-package-test: $*"; }
fail() { echo "consumer-package-test: FAILED: $*" >&2; exit 1; }

version=$(sed -nE 's/.*public static let current = "([^"]+)".*/\1/p' "$root/Sources/FrameStore/SmokescreenVersion.swift")
[ -n "$version" ] || fail "no version in Sources/FrameStore/SmokescreenVersion.swift"
work=$(mktemp -d -t smokescreen-consumer.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The repository as a consumer gets it: a git clone (its committed state) whose release is a tag, resolved
# by version. The clone's tag of this version is put on its HEAD (a commit made since the release was
# tagged is what is under test).
clone=$work/repository/smokescreen
git clone --quiet "$root" "$clone"
git -C "$clone" tag -f "$version" >/dev/null
git -C "$clone" tag --points-at HEAD | grep -qxF "$version" || fail "HEAD of the clone is not tagged $version"

package=$work/consumer
tests=$package/Tests/ConsumerTests
mkdir -p "$package/Sources/Consumer" "$tests/__Snapshots__/ConsumerTests/vesper"
# The goldens this repository checks in for the same transition and settings, and the references of the
# snapshot strategies' own tests (the same views and transition, under the same test names).
cp "$root/Tests/SmokescreenScenesGoldenTests/__Snapshots__/TransitionGoldenTests/vesper-timeline-to-detail/"* \
    "$tests/__Snapshots__/ConsumerTests/vesper/"
cp -R "$root/Tests/SmokescreenSnapshotTestingTests/__Snapshots__/StrategyTests" "$tests/__Snapshots__/StrategyTests"

products=(Smokescreen SmokescreenSnapshotTesting BoundedInput RasterCore PNGIO Typesetting SnapshotView Motion FrameStore
          TransitionCompositor Choreography FrameDiff SmokescreenTesting SmokescreenScenes)
dependencies=$(printf '.product(name: "%s", package: "smokescreen"), ' "${products[@]}")
cat > "$package/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(url: "file://$clone", from: "$version")],
    targets: [
        .target(name: "Consumer", dependencies: [.product(name: "SmokescreenScenes", package: "smokescreen")]),
        .testTarget(
            name: "ConsumerTests",
            dependencies: ["Consumer", ${dependencies%, }],
            exclude: ["__Snapshots__"]  // the goldens are resources of the test, not sources
        ),
    ]
)
EOF

cat > "$package/Sources/Consumer/Consumer.swift" <<'EOF'
import Foundation
import SmokescreenScenes

/// The transitions this app tests.
public let catalogue = TransitionCatalog.all.map(\.name)
EOF

cat > "$tests/ConsumerTests.swift" <<EOF
import BoundedInput
import Choreography
import Consumer
import Foundation
import FrameDiff
import FrameStore
import Motion
import PNGIO
import RasterCore
import SmokescreenScenes
import SmokescreenTesting
import SnapshotView
import TransitionCompositor
import Typesetting
import XCTest

final class ConsumerTests: XCTestCase {
    func testVesperMatchesItsGoldens() {
        // Foundation's and Smokescreen's types side by side, unqualified.
        let transform: Transform2D = .identity
        let foundationTransform = AffineTransform.identity
        XCTAssertTrue(transform.isIdentity)
        XCTAssertEqual(foundationTransform, AffineTransform.identity)
        XCTAssertTrue(catalogue.contains("vesper-timeline-to-detail"))
        let settings = RenderSettings(scale: 1, fps: 10, assetsDirectory: "$root/assets")
        assertTransition(VesperTransition(.timelineToDetail), settings: settings, matchGoldenNamed: "vesper")
    }
}
EOF

# The card and the scene of SmokescreenSnapshotTestingTests/StrategyTests, through `import Smokescreen`.
cat > "$tests/StrategyTests.swift" <<'EOF'
import Foundation
import Smokescreen
import SmokescreenSnapshotTesting
import XCTest

final class StrategyTests: XCTestCase {
    func testAViewTreeMatchesItsReference() throws {
        let window = View(frame: Rect(x: 0, y: 0, width: 40, height: 30), name: "window")
        window.backgroundColor = .white
        let panel = View(frame: Rect(x: 4, y: 5, width: 28, height: 20), name: "panel")
        panel.backgroundColor = Color(hex: 0x007AFF)
        panel.cornerRadius = 5
        let badge = View(frame: Rect(x: 26, y: 2, width: 10, height: 10), name: "badge")
        badge.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.8)
        badge.cornerRadius = 5
        try window.addSubview(panel)
        try window.addSubview(badge)
        assertSnapshot(of: window, as: .image(scale: 1))
    }

    func testATransitionMatchesItsFrameReferences() throws {
        let path = NSTemporaryDirectory() + "/consumer-grow-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
            {
              "size": [48, 32],
              "states": {
                "small": { "backgroundColor": "#FFFFFF",
                           "subviews": [ { "name": "square", "frame": [4, 4, 12, 12], "backgroundColor": "#E74C3C", "cornerRadius": 3 } ] },
                "large": { "backgroundColor": "#FFFFFF",
                           "subviews": [ { "name": "square", "frame": [22, 6, 22, 22], "backgroundColor": "#3498DB", "cornerRadius": 6 } ] }
              },
              "transitions": [
                { "name": "grow", "from": "small", "to": "large",
                  "phases": [ { "name": "move", "duration": 0.3, "curve": "easeInEaseOut" } ],
                  "matched": [ { "id": "square", "phase": "move", "style": "opaqueCrossFade" } ] }
              ]
            }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        assertSnapshot(of: try SceneTransition.load(path: path, transition: "grow"), as: .frames(fps: 10, scale: 1))
    }

    /// A built-in that reads images, with no assets folder given: found in the Smokescreen checkout.
    func testABuiltInRecordsAndMatches() throws {
        let folder = NSTemporaryDirectory() + "/consumer-references-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let vesper = VesperTransition(.timelineToDetail)
        let recorded = verifySnapshot(of: vesper, as: .frames(fps: 10, scale: 1), named: "vesper", record: .all,
                                      snapshotDirectory: folder)
        XCTAssertTrue(recorded?.hasPrefix("Record mode is on.") == true, recorded ?? "")
        XCTAssertNil(verifySnapshot(of: vesper, as: .frames(fps: 10, scale: 1), named: "vesper", record: .never,
                                    snapshotDirectory: folder))
    }
}
EOF

# The goldens and the snapshot references must match, never be recorded.
say "building and testing a package that depends on smokescreen $version (a debug build of it)…"
status=0
SMOKESCREEN_RECORD=never SNAPSHOT_TESTING_RECORD=never \
    swift test --package-path "$package" --scratch-path "$package/.build" >"$work/test.log" 2>&1 || status=$?
if [ "$status" -ne 0 ] || ! grep -q "Executed 4 tests, with 0 failures" "$work/test.log"; then
    tail -c 4000 "$work/test.log" >&2
    fail "the consumer's swift test (exit $status) did not pass its 4 tests"
fi
grep -qF "\"version\" : \"$version\"" "$package/Package.resolved" \
    || fail "the dependency was not resolved by its version $version: $(cat "$package/Package.resolved")"
say "ok: the consumer's 4 tests passed, with smokescreen resolved by its version $version"
