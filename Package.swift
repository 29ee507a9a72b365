// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Smokescreen",
    products: [
        .library(name: "RasterCore", targets: ["RasterCore"]),
        .library(name: "PNGIO", targets: ["PNGIO"]),
        .library(name: "Motion", targets: ["Motion"]),
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

        // Timing curves (and, later, the whole animation engine).
        .target(name: "Motion"),

        // Built-in scenes; for now the reference benchmark scene as a painter-level display list.
        .target(name: "Showcase", dependencies: ["RasterCore", "PNGIO", "Motion"]),

        .executableTarget(
            name: "smokescreen",
            dependencies: [
                "RasterCore", "PNGIO", "Showcase",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "RasterCoreTests", dependencies: ["RasterCore"]),
        .testTarget(name: "PNGIOTests", dependencies: ["PNGIO", "CPNGShim", "RasterCore"]),
        .testTarget(name: "MotionTests", dependencies: ["Motion"]),
        .testTarget(name: "ShowcaseTests", dependencies: ["Showcase", "RasterCore", "PNGIO"]),
    ],
    swiftLanguageModes: [.v6]
)
