// `import Smokescreen`: every library module of the package in one import, for code that wants all of it.
//
// Not re-exported, on purpose:
// - SmokescreenTesting and SmokescreenSnapshotTesting import XCTest (and the latter swift-snapshot-testing):
//   an app target that imports Smokescreen must not link a test framework. Test targets import them beside
//   this module.
// - The command line's modules (SmokescreenCLI, MergeParts) and the C shims are not products.

@_exported import BoundedInput
@_exported import Choreography
@_exported import Containers
@_exported import FrameDiff
@_exported import FrameStore
@_exported import Lint
@_exported import Motion
@_exported import PNGIO
@_exported import Previews
@_exported import RasterCore
@_exported import SmokescreenScenes
@_exported import SnapshotView
@_exported import TransitionCompositor
@_exported import Typesetting
