// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Smokescreen",
    products: [
        .library(name: "BoundedInput", targets: ["BoundedInput"]),
        .library(name: "RasterCore", targets: ["RasterCore"]),
        .library(name: "PNGIO", targets: ["PNGIO"]),
        .library(name: "Typesetting", targets: ["Typesetting"]),
        .library(name: "SnapshotView", targets: ["SnapshotView"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "ConstraintSolver", targets: ["ConstraintSolver"]),
        .library(name: "Containers", targets: ["Containers"]),
        .library(name: "TransitionCompositor", targets: ["TransitionCompositor"]),
        .library(name: "FrameStore", targets: ["FrameStore"]),
        .library(name: "Choreography", targets: ["Choreography"]),
        .library(name: "FrameDiff", targets: ["FrameDiff"]),
        .library(name: "Previews", targets: ["Previews"]),
        .library(name: "Lint", targets: ["Lint"]),
        .library(name: "SmokescreenTesting", targets: ["SmokescreenTesting"]),
        .library(name: "SmokescreenScenes", targets: ["SmokescreenScenes"]),
        // swift-snapshot-testing strategies for view trees and transitions: a product of its own, so that
        // only the packages that use it build swift-snapshot-testing.
        .library(name: "SmokescreenSnapshotTesting", targets: ["SmokescreenSnapshotTesting"]),
        // Every library module behind one `import Smokescreen` (not the test helpers: see Sources/Smokescreen).
        .library(name: "Smokescreen", targets: ["Smokescreen"]),
        .executable(name: "smokescreen", targets: ["smokescreen"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (DocC); a plugin, not linked into anything.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // `SmokescreenSnapshotTesting` only: its `Snapshotting` and `Diffing` strategies for `assertSnapshot`.
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        // The limits on every input, bounded reads of regular files, atomic writes, and parsers for the
        // structured files users give (JSON, XML property lists) with line:column and key paths in errors.
        .target(name: "BoundedInput"),

        // Premultiplied RGBA bitmaps, geometry, colour and the anti-aliased painter.
        .target(name: "RasterCore", dependencies: ["BoundedInput", "CRasterKernels", "CCPUFeatures"]),

        // The one probe of the processor's vector instructions (and the switch that forces scalar code),
        // shared by every C kernel.
        .target(name: "CCPUFeatures"),
        // RasterCore's innermost loops (resampling, compositing) in portable C and with SSE4.1/AVX2.
        .target(name: "CRasterKernels", dependencies: ["CCPUFeatures"]),

        // The system libpng (and zlib through it), found with pkg-config.
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev", "zlib1g-dev", "pkg-config"])]
        ),
        // The only C that calls libpng: every setjmp lives here, never in Swift. Decoding, and libpng's
        // row-by-row encoder (several filters; raw samples of any colour type for tests).
        .target(name: "CPNGShim", dependencies: ["CLibPNG"], linkerSettings: [.linkedLibrary("z")]),
        // Smokescreen's own PNG encoder for one filter, every frame's fast path: whole images filtered (SSSE3
        // where CCPUFeatures finds it), runs of zero rows and repeated segments compressed once, one zlib
        // stream, the chunks written without libpng (so no setjmp: plain error codes). No library but zlib.
        // ISA-L's deflate (igzip) compresses the `fast` preset's pieces (zlib everything else, and decoding).
        .target(name: "CFastPNG", dependencies: ["CCPUFeatures", "CLibISAL"], linkerSettings: [.linkedLibrary("z")]),
        // The system ISA-L (Debian's libisal-dev), found with pkg-config: SIMD deflate for the `fast` preset.
        .systemLibrary(
            name: "CLibISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev", "pkg-config"])]
        ),
        // The system OpenSSL libcrypto, found with pkg-config: SHA-256 of the files Smokescreen writes
        // (why not a hand-written one, or swift-crypto: Sources/CLibCrypto/shim.h).
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev", "pkg-config"])]
        ),
        .target(name: "PNGIO", dependencies: ["BoundedInput", "RasterCore", "CPNGShim", "CFastPNG", "CLibCrypto"]),

        // The system FreeType library, found with pkg-config.
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev", "pkg-config"])]
        ),
        // The system HarfBuzz, found with pkg-config: every run of text is shaped by it (kerning,
        // ligatures, contextual forms, Arabic joining).
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev", "pkg-config"])]
        ),
        // ICU's line breaking (UAX #14) and bidirectional algorithm (UAX #9) behind plain C functions
        // (why C: Sources/CUnicodeShim/include/cunicode_shim.h). Debian's libicu-dev; libicuuc is loaded
        // with dlopen when text is first laid out, not linked.
        .target(name: "CUnicodeShim"),
        // Fonts, shaping, line breaking, bidirectional text and glyph rasterization for labels.
        .target(name: "Typesetting", dependencies: ["RasterCore", "CFreeType", "CHarfBuzz", "CUnicodeShim"]),

        // The view tree: UIKit geometry, coordinate conversion, rendering and snapshots.
        .target(name: "SnapshotView", dependencies: ["RasterCore", "Typesetting"]),

        // Timing curves, springs, animation blocks, the virtual clock and interactive animators.
        .target(name: "Motion", dependencies: ["RasterCore", "SnapshotView"]),

        // UIKit's containers on the view tree and the animation engine: the table view, with its batch
        // updates, row animations, selection and animated scrolling.
        .target(name: "Containers", dependencies: ["RasterCore", "CRasterKernels", "SnapshotView", "Typesetting", "Motion", "TableIndexPaths"]),

        // UIKit's `IndexPath(row:section:)`, `row` and `section` on Foundation's IndexPath: one module, so
        // that the table view and the UIKit layer both export the same declarations.
        .target(name: "TableIndexPaths"),

        // The smokescreen, transition contexts, frame sampling and the parallel PNG frame writer.
        .target(name: "TransitionCompositor", dependencies: ["BoundedInput", "RasterCore", "PNGIO", "SnapshotView", "Motion", "FrameStore"]),

        // Output folders: the version that marks files as Smokescreen's, frames and manifests written
        // atomically under a lock, what counts as the same render, shards, clean-up.
        .target(name: "FrameStore", dependencies: ["BoundedInput", "RasterCore", "PNGIO", "CLibCrypto"]),

        // Transitions as values: matched and unmatched elements, phases, stacking, reversal; scene files.
        .target(name: "Choreography", dependencies: ["BoundedInput", "RasterCore", "PNGIO", "SnapshotView", "Typesetting", "Motion", "TransitionCompositor",
                                                     "ConstraintSolver"]),

        // The little C merge needs (why: Sources/CArchiveShim/include/carc_shim.h): a tar+gzip-only
        // libarchive reader, renameat2(RENAME_NOREPLACE), a tree removal that follows no link and is safe
        // in a signal handler, and the SIGINT/SIGTERM handler that removes scratch and staging folders.
        // libarchive (Debian's libarchive-dev for its header) is loaded with dlopen by the first merge
        // of an archive, not linked: every other run of the tool would map it and its seven libraries.
        .target(name: "CArchiveShim"),
        // What merge reads and where it writes: archives unpacked with limits into a private scratch
        // folder, files of a part read without following links, catalogue.json parsed strictly, and the
        // merged folder published with an atomic rename that never replaces or deletes anything.
        .target(name: "MergeParts", dependencies: ["BoundedInput", "FrameStore", "CArchiveShim", "CLibCrypto"]),

        // The only C that calls giflib and libimagequant (Debian's libgif-dev, libimagequant-dev), and zlib's crc32.
        // giflib and libimagequant are loaded with dlopen when a GIF is made, not linked (see its header).
        .target(name: "CPreviewShim", linkerSettings: [.linkedLibrary("z")]),
        // What people look at: contact sheets, animated PNG and GIF, MP4 through ffmpeg.
        .target(name: "Previews", dependencies: ["BoundedInput", "RasterCore", "PNGIO", "CPreviewShim", "FrameStore", "SnapshotView", "Typesetting", "TransitionCompositor"]),

        // Frame-by-frame checks of a transition: flicker, jumps, uncovered screen, late or snapping ends.
        .target(name: "Lint", dependencies: ["RasterCore", "SnapshotView"]),

        // Pixel comparison of bitmaps and frame sequences. PNGIO reads the frames of a folder.
        .target(name: "FrameDiff", dependencies: ["BoundedInput", "RasterCore", "PNGIO", "FrameStore", "Typesetting"]),

        // XCTest helpers: golden frames (of bitmaps, frame sequences, whole transitions) beside the test file,
        // record modes, failure artifacts. Imports XCTest.
        .target(name: "SmokescreenTesting", dependencies: ["BoundedInput", "FrameDiff", "FrameStore", "PNGIO", "RasterCore", "TransitionCompositor"]),

        // The built-in transitions (Vesper, the reference scene), their scenes and the catalogue `list` shows.
        .target(name: "SmokescreenScenes", dependencies: ["Choreography", "Containers", "FrameStore", "RasterCore", "PNGIO", "Typesetting", "SnapshotView", "Motion", "TransitionCompositor"]),

        // swift-snapshot-testing strategies: `.image(scale:)` for a view tree and `.frames(fps:scale:)` for a
        // transition, PNG through PNGIO, compared with FrameDiff, failure artifacts as its attachments.
        .target(
            name: "SmokescreenSnapshotTesting",
            dependencies: ["FrameDiff", "PNGIO", "RasterCore", "SnapshotView", "TransitionCompositor",
                           .product(name: "SnapshotTesting", package: "swift-snapshot-testing")]
        ),

        // `import Smokescreen`: the public library modules re-exported from one file.
        .target(name: "Smokescreen", dependencies: ["BoundedInput", "RasterCore", "PNGIO", "Typesetting", "SnapshotView", "Motion",
                                                    "Containers", "TransitionCompositor", "FrameStore", "Choreography", "FrameDiff",
                                                    "Previews", "Lint", "SmokescreenScenes"]),

        // `smokescreen serve`: the live preview's model (sources, renders on demand, frames cached by digest,
        // inotify watching) and its HTTP/1.1 server (on the system's sockets: docs/live-preview.md says why
        // not a framework) and page.
        .target(
            name: "LivePreview",
            dependencies: ["BoundedInput", "RasterCore", "PNGIO", "CLibCrypto", "FrameDiff", "TransitionCompositor", "Choreography", "SmokescreenScenes"]
        ),

        // The command line's subcommands, as a library so tests can parse and run them in process.
        .target(
            name: "SmokescreenCLI",
            dependencies: [
                "BoundedInput", "RasterCore", "PNGIO", "SnapshotView", "TransitionCompositor", "Choreography", "SmokescreenScenes", "FrameDiff", "FrameStore", "Previews", "Lint", "MergeParts", "LivePreview",
                "SwiftSourcePass", "ConstraintSolver",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What `render File.swift` rewrites of iOS code that needs the Objective-C runtime (no dependencies:
        // a lexer of its own, so that the tool's build stays quick).
        .target(name: "SwiftSourcePass"),
        // Auto Layout's solver: an incremental Cassowary simplex, with no dependency, so the UIKit layer,
        // scene files and the fuzzer share it.
        .target(name: "ConstraintSolver"),
        .testTarget(name: "ConstraintSolverTests", dependencies: ["ConstraintSolver"], exclude: ["kiwi_reference.py"]),
        .testTarget(name: "SwiftSourcePassTests", dependencies: ["SwiftSourcePass"]),
        // The tool's release build on Linux links Swift's runtime and Foundation statically (`-static-stdlib`,
        // compiled with it too so that the static libraries' link entries are used) and exports none of its
        // own symbols (`-static-stdlib` links with `-export-dynamic`): an empty run then maps 14 libraries
        // fewer, binds far fewer symbols, and the runtime's start-up `dladdr` scans 600 exported symbols
        // rather than 18,000 (docs/performance.md#start-up). Unsafe flags are allowed here because no library
        // product contains this target: packages that depend on Smokescreen by version still can.
        .executableTarget(
            name: "smokescreen", dependencies: ["SmokescreenCLI"],
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))]
        ),

        .testTarget(name: "RasterCoreTests", dependencies: ["RasterCore", "CRasterKernels", "CCPUFeatures"]),
        .testTarget(name: "PNGIOTests", dependencies: ["PNGIO", "CPNGShim", "CCPUFeatures", "RasterCore"]),
        // The fast encoder's C API called directly; libpng (CPNGShim) decodes what it writes.
        .testTarget(name: "CFastPNGTests", dependencies: ["CFastPNG", "CCPUFeatures", "CPNGShim"]),
        .testTarget(name: "TypesettingTests", dependencies: ["Typesetting", "CUnicodeShim", "RasterCore", "PNGIO", "SmokescreenTesting"], exclude: ["__Snapshots__"]),
        .testTarget(name: "SnapshotViewTests", dependencies: ["SnapshotView", "Typesetting", "RasterCore", "PNGIO"]),
        .testTarget(name: "MotionTests", dependencies: ["Motion", "SnapshotView", "RasterCore"]),
        .testTarget(name: "ContainersTests", dependencies: ["Containers", "Motion", "SnapshotView", "RasterCore", "CCPUFeatures"]),
        .testTarget(name: "TransitionCompositorTests", dependencies: ["BoundedInput", "FrameStore", "TransitionCompositor", "SnapshotView", "Motion", "PNGIO", "RasterCore"]),
        .testTarget(name: "ChoreographyTests", dependencies: ["Choreography", "BoundedInput", "TransitionCompositor", "SnapshotView", "Typesetting", "Motion", "RasterCore", "PNGIO"]),
        .testTarget(name: "FrameStoreTests", dependencies: ["FrameStore", "BoundedInput", "TransitionCompositor", "SnapshotView", "PNGIO", "RasterCore"]),
        .testTarget(name: "BoundedInputTests", dependencies: ["BoundedInput"]),
        .testTarget(name: "LintTests", dependencies: ["Lint", "RasterCore", "SnapshotView", "Motion", "TransitionCompositor", "SmokescreenScenes", "Typesetting"]),
        .testTarget(name: "PreviewsTests", dependencies: ["Previews", "PNGIO", "RasterCore", "TransitionCompositor", "SmokescreenScenes", "FrameStore"]),
        .testTarget(name: "FrameDiffTests", dependencies: ["FrameDiff", "FrameStore", "RasterCore", "PNGIO", "SmokescreenCLI"], exclude: ["Fixtures"]),
        .testTarget(
            name: "SmokescreenTestingTests",
            dependencies: ["FrameStore", "SmokescreenTesting", "FrameDiff", "PNGIO", "RasterCore", "TransitionCompositor", "SnapshotView"],
            exclude: ["__Snapshots__"]
        ),
        // assertSnapshot with the strategies against references under __Snapshots__, and their Diffing.
        .testTarget(
            name: "SmokescreenSnapshotTestingTests",
            dependencies: ["Smokescreen", "SmokescreenSnapshotTesting", .product(name: "SnapshotTesting", package: "swift-snapshot-testing")],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(name: "SmokescreenCLITests", dependencies: ["BoundedInput", "FrameStore", "MergeParts",
            "SmokescreenCLI", "SmokescreenScenes", "TransitionCompositor", "PNGIO", "RasterCore", "SnapshotView", "Lint", "Previews", "Choreography",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], exclude: ["LintLabelled", "SwiftFiles"]),
        // The live preview's API over real sockets, and the page in headless Chromium against `smokescreen serve`.
        .testTarget(name: "LivePreviewTests", dependencies: ["LivePreview", "Choreography", "PNGIO", "RasterCore", "TransitionCompositor", "Lint", "SmokescreenCLI"]),
        .testTarget(name: "SmokescreenScenesTests", dependencies: ["BoundedInput", "FrameStore", "SmokescreenScenes", "RasterCore", "PNGIO", "SnapshotView", "Motion", "TransitionCompositor", "Typesetting"]),
        // Every built-in transition's frames against goldens checked in under __Snapshots__.
        .testTarget(
            name: "SmokescreenScenesGoldenTests", dependencies: ["FrameStore", "PNGIO", "RasterCore", "SmokescreenTesting", "SmokescreenScenes", "TransitionCompositor", "FrameDiff"],
            exclude: ["__Snapshots__"]
        ),
        // Every built-in against an independent rasterizer (cairo, through render_reference.py beside the test);
        // perspective and blur against Skia (perspective_reference.py).
        .testTarget(
            name: "ReferenceRendererTests", dependencies: ["FrameDiff", "PNGIO", "RasterCore", "SmokescreenScenes", "SnapshotView", "TransitionCompositor"],
            exclude: ["render_reference.py", "perspective_reference.py", "stroke_reference.py", "gradient_reference.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// UIKit on Linux: modules with Apple's names (UIKit, QuartzCore, CoreGraphics), a façade over Smokescreen's
// own modules, so that iOS transition code compiles with `import UIKit` and renders frames. Declared only
// on Linux: on Apple's platforms they would shadow the system frameworks (docs/uikit.md).
#if os(Linux)
package.products += [
    .library(name: "UIKit", targets: ["UIKit"]),
    .library(name: "SmokescreenStage", targets: ["SmokescreenStage"]),
    .library(name: "SmokescreenStageTesting", targets: ["SmokescreenStageTesting"]),
    // The stage and everything under it as one shared library, built once beside the tool's own release
    // build: `smokescreen render File.swift` compiles only the user's files and links them against it.
    .library(name: "SmokescreenStageRuntime", type: .dynamic, targets: ["SmokescreenStage"]),
    // The same transition with the UIKit layer and with the native API, timed side by side.
    .executable(name: "uikit-bench", targets: ["UIKitBenchmark"]),
]
package.targets += [
    // CGAffineTransform, CGVector, CGColor, CGPath, CGImage: what Foundation on Linux lacks of Core Graphics.
    .target(name: "CoreGraphics", dependencies: ["RasterCore"]),
    // CALayer and its kinds, CATransform3D, Core Animation's animations and CATransaction, each layer
    // backed by a Smokescreen view.
    .target(name: "QuartzCore", dependencies: ["CoreGraphics", "RasterCore", "SnapshotView", "Motion"]),
    // UIView and its kinds, UIColor, UIFont, UIImage, animation as UIKit runs it, view controllers and
    // transitions, gesture recognizers, and the stage that runs them on a virtual clock.
    .target(name: "UIKit", dependencies: ["QuartzCore", "CoreGraphics", "RasterCore", "SnapshotView", "Motion", "Typesetting", "PNGIO",
                                         "ConstraintSolver", "Containers", "TableIndexPaths"]),
    // The stage: a window on a device, a virtual clock, frames taken as time passes, written as a render.
    .target(name: "SmokescreenStage", dependencies: ["UIKit", "Containers", "Motion", "SnapshotView", "RasterCore", "TransitionCompositor",
                                                    "FrameStore", "PNGIO", "BoundedInput"]),
    // `assertSnapshot(of: stage, as: .frames)`: a stage's frames through swift-snapshot-testing (a target of
    // its own, so that the stage never links XCTest into the programs `render File.swift` builds).
    .target(name: "SmokescreenStageTesting", dependencies: ["SmokescreenStage", "SmokescreenSnapshotTesting", "FrameDiff", "RasterCore",
                                                           .product(name: "SnapshotTesting", package: "swift-snapshot-testing")]),
    .executableTarget(name: "UIKitBenchmark", dependencies: ["SmokescreenStage", "SmokescreenScenes", "TransitionCompositor", "Motion",
                                                            "SnapshotView", "RasterCore", "PNGIO"]),
    .testTarget(name: "UIKitTests", dependencies: ["UIKit", "SmokescreenStage", "SmokescreenTesting", "SmokescreenStageTesting"],
                exclude: ["__Snapshots__"]),
]
#endif

// The test suite is built in release beside the tool (script/test): the library modules are compiled once,
// optimized, for both, and tests reach what they check through `package` declarations (no `@testable
// import`, which needs every module compiled again with -enable-testing). The test targets' own code is
// compiled without optimization: 56 s for them where -O took 144 s, and the suite ran as fast
// (docs/performance.md#the-tests-built-in-release). No product contains a test target, so these flags
// never reach a package that depends on Smokescreen (SwiftPM refuses unsafe flags in a dependency).
for target in package.targets where target.type == .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
}
