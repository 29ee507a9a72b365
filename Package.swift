// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Smokescreen",
    products: [
        .library(name: "RasterCore", targets: ["RasterCore"]),
        .library(name: "PNGIO", targets: ["PNGIO"]),
        .library(name: "Typesetting", targets: ["Typesetting"]),
        .library(name: "SnapshotView", targets: ["SnapshotView"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "TransitionCompositor", targets: ["TransitionCompositor"]),
        .library(name: "FrameStore", targets: ["FrameStore"]),
        .library(name: "FrameDiff", targets: ["FrameDiff"]),
        .library(name: "SmokescreenTesting", targets: ["SmokescreenTesting"]),
        .library(name: "SmokescreenScenes", targets: ["SmokescreenScenes"]),
        .executable(name: "smokescreen", targets: ["smokescreen"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Premultiplied RGBA bitmaps, geometry, colour and the anti-aliased painter. No dependencies.
        .target(name: "RasterCore"),

        // The system libpng (and zlib through it), found with pkg-config.
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev", "zlib1g-dev", "pkg-config"])]
        ),
        // The only C that calls libpng: every setjmp lives here, never in Swift.
        .target(name: "CPNGShim", dependencies: ["CLibPNG"], linkerSettings: [.linkedLibrary("z")]),
        .target(name: "PNGIO", dependencies: ["RasterCore", "CPNGShim"]),

        // The system FreeType library, found with pkg-config.
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev", "pkg-config"])]
        ),
        // Fonts, line breaking and glyph rasterization for labels.
        .target(name: "Typesetting", dependencies: ["RasterCore", "CFreeType"]),

        // The view tree: UIKit geometry, coordinate conversion, rendering and snapshots.
        .target(name: "SnapshotView", dependencies: ["RasterCore", "Typesetting"]),

        // Timing curves, springs, animation blocks, the virtual clock and interactive animators.
        .target(name: "Motion", dependencies: ["RasterCore", "SnapshotView"]),

        // The smokescreen, transition contexts, frame sampling and the parallel PNG frame writer.
        .target(name: "TransitionCompositor", dependencies: ["RasterCore", "PNGIO", "SnapshotView", "Motion"]),

        // Output folders: the version that marks files as Smokescreen's, frames and manifests written
        // atomically under a lock, what counts as the same render, shards, clean-up.
        .target(name: "FrameStore", dependencies: ["RasterCore", "PNGIO"]),

        // Pixel comparison of bitmaps and frame sequences. PNGIO reads the frames of a folder.
        .target(name: "FrameDiff", dependencies: ["RasterCore", "PNGIO"]),

        // XCTest helpers: golden frames (of bitmaps, frame sequences, whole transitions) beside the test file,
        // record modes, failure artifacts. Imports XCTest.
        .target(name: "SmokescreenTesting", dependencies: ["FrameDiff", "PNGIO", "RasterCore", "TransitionCompositor"]),

        // The built-in transitions (Vesper, the reference scene), their scenes and the catalogue `list` shows.
        .target(name: "SmokescreenScenes", dependencies: ["RasterCore", "PNGIO", "Typesetting", "SnapshotView", "Motion", "TransitionCompositor"]),

        // The command line's subcommands, as a library so tests can parse and run them in process.
        .target(
            name: "SmokescreenCLI",
            dependencies: [
                "RasterCore", "PNGIO", "SnapshotView", "TransitionCompositor", "SmokescreenScenes", "FrameDiff", "FrameStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "smokescreen", dependencies: ["SmokescreenCLI"]),

        .testTarget(name: "RasterCoreTests", dependencies: ["RasterCore"]),
        .testTarget(name: "PNGIOTests", dependencies: ["PNGIO", "CPNGShim", "RasterCore"]),
        .testTarget(name: "TypesettingTests", dependencies: ["Typesetting", "RasterCore", "PNGIO"], exclude: ["__Goldens__"]),
        .testTarget(name: "SnapshotViewTests", dependencies: ["SnapshotView", "Typesetting", "RasterCore", "PNGIO"]),
        .testTarget(name: "MotionTests", dependencies: ["Motion", "SnapshotView", "RasterCore"]),
        .testTarget(name: "TransitionCompositorTests", dependencies: ["TransitionCompositor", "SnapshotView", "Motion", "PNGIO", "RasterCore"]),
        .testTarget(name: "FrameDiffTests", dependencies: ["FrameDiff", "RasterCore", "PNGIO"], exclude: ["Fixtures"]),
        .testTarget(
            name: "SmokescreenTestingTests",
            dependencies: ["SmokescreenTesting", "FrameDiff", "PNGIO", "RasterCore", "TransitionCompositor", "SnapshotView"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(name: "SmokescreenCLITests", dependencies: [
            "SmokescreenCLI", "SmokescreenScenes", "TransitionCompositor", "PNGIO", "RasterCore",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "SmokescreenScenesTests", dependencies: ["SmokescreenScenes", "RasterCore", "PNGIO", "SnapshotView", "Motion", "TransitionCompositor"]),
        // Every built-in transition's frames against goldens checked in under __Snapshots__.
        .testTarget(
            name: "SmokescreenScenesGoldenTests", dependencies: ["SmokescreenTesting", "SmokescreenScenes", "TransitionCompositor", "FrameDiff"],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
