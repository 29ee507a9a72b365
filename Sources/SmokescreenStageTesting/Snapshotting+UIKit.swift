import FrameDiff
import RasterCore
import SmokescreenSnapshotTesting
import SmokescreenStage
import SnapshotTesting

extension Snapshotting where Value == UIViewController, Format == SnapshotFrames {
    /// `.image()`: the view controller at its own size, exact.
    public static var image: Snapshotting { .image() }

    /// The view controller drawn on a device, as swift-snapshot-testing's strategy of the same name:
    /// the controller is shown full screen on a stage of `config`'s screen (or `size`), with `config`'s
    /// safe area and its traits overridden by `traits`, laid out, and its view drawn (transparent where
    /// it draws nothing; no status bar). Stored as a PNG and compared as
    /// ``FrameDiff/FrameComparison/snapshotTesting(precision:perceptualPrecision:)`` says.
    ///
    /// ```swift
    /// assertSnapshot(of: SettingsViewController(), as: .image(on: .iPhone13))
    /// assertSnapshot(of: controller, as: .image(on: .iPhoneSe, traits: .init(displayScale: 1)))  // small
    /// ```
    /// - Parameters:
    ///   - config: the device; its traits carry the scale (see ``ViewImageConfig``).
    ///   - precision: the share of pixels (0…1) that must match; default 1.
    ///   - perceptualPrecision: how close (0…1) a pixel's colour must be to match; default 1.
    ///   - size: the screen in points instead of `config`'s; default `config`'s.
    ///   - traits: traits over `config`'s (`.init(userInterfaceStyle: .dark)`, `.init(displayScale: 1)`).
    public static func image(on config: ViewImageConfig, precision: Float = 1, perceptualPrecision: Float = 1, size: CGSize? = nil,
                             traits: UITraitCollection = .init()) -> Snapshotting {
        var config = config
        config.size = size ?? config.size
        return drawing(config: config, traits: traits, comparison: .snapshotTesting(precision: precision, perceptualPrecision: perceptualPrecision))
    }

    /// The view controller at `size` (default: its view's size now) with no safe area, as
    /// swift-snapshot-testing's strategy of the same name. `drawHierarchyInKeyWindow` is accepted: the
    /// view is drawn the same way either way.
    public static func image(drawHierarchyInKeyWindow: Bool = false, precision: Float = 1, perceptualPrecision: Float = 1,
                             size: CGSize? = nil, traits: UITraitCollection = .init()) -> Snapshotting {
        drawing(config: ViewImageConfig(size: size), traits: traits, comparison: .snapshotTesting(precision: precision, perceptualPrecision: perceptualPrecision))
    }

    static func drawing(config: ViewImageConfig, traits: UITraitCollection, comparison: FrameComparison) -> Snapshotting {
        .picture(of: "the view controller", comparison: comparison) { try ViewImageConfig.draw($0, on: config, traits: traits) }
    }
}

extension Snapshotting where Value == UIView, Format == SnapshotFrames {
    /// `.image()`: the view at its own size, exact.
    public static var image: Snapshotting { .image() }

    /// The view at `size` (default: its frame's size now), in a window of that size with `traits`, as
    /// swift-snapshot-testing's strategy of the same name; compared as
    /// ``FrameDiff/FrameComparison/snapshotTesting(precision:perceptualPrecision:)`` says.
    /// `drawHierarchyInKeyWindow` is accepted: the view is drawn the same way either way.
    public static func image(drawHierarchyInKeyWindow: Bool = false, precision: Float = 1, perceptualPrecision: Float = 1,
                             size: CGSize? = nil, traits: UITraitCollection = .init()) -> Snapshotting {
        .picture(of: "the view", comparison: .snapshotTesting(precision: precision, perceptualPrecision: perceptualPrecision)) {
            try ViewImageConfig.draw($0, size: size, traits: traits)
        }
    }
}

extension Snapshotting where Value == CALayer, Format == SnapshotFrames {
    /// `.image()`: the layer at its bounds, exact.
    public static var image: Snapshotting { .image() }

    /// The layer and its sublayers at its bounds, as swift-snapshot-testing's strategy of the same name,
    /// at the scale `traits` give (`.init(displayScale: 1)`; 2 when they give none, where
    /// swift-snapshot-testing takes the simulator's); compared as
    /// ``FrameDiff/FrameComparison/snapshotTesting(precision:perceptualPrecision:)`` says.
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1, traits: UITraitCollection = .init()) -> Snapshotting {
        .picture(of: "the layer", comparison: .snapshotTesting(precision: precision, perceptualPrecision: perceptualPrecision)) {
            try ViewImageConfig.draw($0, traits: traits)
        }
    }
}

extension Snapshotting where Format == SnapshotFrames {
    /// One picture `draw` makes of the value, stored as a PNG and compared with `comparison`; a drawing
    /// that fails is reported as `what` could not be drawn, with the reason.
    static func picture(of what: String, comparison: FrameComparison, _ draw: @escaping (Value) throws -> Bitmap) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .frames(comparison: comparison)) { value in
            Async { callback in
                do {
                    callback(SnapshotFrames(frames: [try draw(value)]))
                } catch {
                    SnapshotFailure.report("cannot draw \(what): \(error)")
                }
            }
        }
    }
}

extension ViewImageConfig {
    /// `layer` drawn as ``Snapshotting/image(precision:perceptualPrecision:traits:)`` draws it.
    package static func draw(_ layer: CALayer, traits: UITraitCollection) throws -> Bitmap {
        let size = layer.bounds.size
        let (stage, _) = try stage(ViewImageConfig(size: size.width > 0 && size.height > 0 ? size : nil), traits: traits, size: CGSize(width: 1, height: 1))
        return try stage.snapshot(of: layer).bitmap!
    }

    /// `controller` drawn as ``Snapshotting/image(on:precision:perceptualPrecision:size:traits:)`` draws it:
    /// shown on a stage of `config` under `traits`, told of the traits applied over the device's (as
    /// swift-snapshot-testing's override does), laid out, and its view's pixels taken.
    package static func draw(_ controller: UIViewController, on config: ViewImageConfig, traits: UITraitCollection) throws -> Bitmap {
        let (stage, device) = try stage(config, traits: traits, size: controller.view.frame.size)
        stage.show(controller)
        controller.traitsDidChange(from: device)
        return try stage.snapshot(of: controller.view).bitmap!
    }

    /// `view` drawn as ``Snapshotting/image(drawHierarchyInKeyWindow:precision:perceptualPrecision:size:traits:)``
    /// draws it: at `size` (else its frame's size) in a window of that size under `traits`, told of the
    /// traits (a label that adjusts its font to the text size takes the new one), sized to fit when it
    /// has no size yet (as swift-snapshot-testing does), laid out, and its pixels taken.
    package static func draw(_ view: UIView, size: CGSize?, traits: UITraitCollection) throws -> Bitmap {
        if let size { view.frame.size = size }
        let (stage, device) = try stage(ViewImageConfig(size: view.frame.size.width > 0 && view.frame.size.height > 0 ? view.frame.size : nil),
                                        traits: traits, size: CGSize(width: 1, height: 1))
        stage.window.addSubview(view)
        defer { view.removeFromSuperview() }
        view.traitsDidChange(from: device)
        if view.frame.width == 0 || view.frame.height == 0 {
            view.sizeToFit()
            view.setNeedsLayout()
            view.layoutIfNeeded()
        }
        return try stage.snapshot(of: view).bitmap!
    }

    /// A stage of `config`'s screen (else `size`), safe area and traits under `traits`: the scale of the
    /// traits (2 when they give none), their appearance and text size, and every other trait the stage's
    /// views see in `UITraitCollection.current`; and the device's own traits, which those replaced.
    package static func stage(_ config: ViewImageConfig, traits: UITraitCollection, size: CGSize) throws -> (Stage, device: UITraitCollection) {
        let merged = UITraitCollection(traitsFrom: [config.traits, traits])
        let screen = config.size ?? size
        let scale = merged.displayScale > 0 ? merged.displayScale : 2
        let stage = try Stage(device: Device(name: "snapshot", size: screen, scale: scale, safeAreaInsets: config.safeArea),
                              appearance: merged.userInterfaceStyle == .dark ? .dark : .light,
                              contentSizeCategory: merged.preferredContentSizeCategory)
        let device = UITraitCollection.current
        UITraitCollection.current = UITraitCollection(traitsFrom: [device, merged])
        return (stage, device)
    }
}
