import FrameDiff
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
        Snapshotting(pathExtension: "png", diffing: .frames(comparison: comparison)) { controller in
            Async { callback in
                do {
                    let stage = try ViewImageConfig.stage(config, traits: traits, size: controller.view.frame.size)
                    stage.show(controller)
                    callback(SnapshotFrames(frames: [try stage.snapshot(of: controller.view).bitmap!]))
                } catch {
                    SnapshotFailure.report("cannot draw the view controller: \(error)")
                }
            }
        }
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
        let comparison = FrameComparison.snapshotTesting(precision: precision, perceptualPrecision: perceptualPrecision)
        return Snapshotting(pathExtension: "png", diffing: .frames(comparison: comparison)) { view in
            Async { callback in
                do {
                    let stage = try ViewImageConfig.stage(ViewImageConfig(size: size), traits: traits, size: view.frame.size)
                    if let size { view.frame.size = size }
                    stage.window.addSubview(view)
                    callback(SnapshotFrames(frames: [try stage.snapshot(of: view).bitmap!]))
                    view.removeFromSuperview()
                } catch {
                    SnapshotFailure.report("cannot draw the view: \(error)")
                }
            }
        }
    }
}

extension ViewImageConfig {
    /// A stage of `config`'s screen (else `size`), safe area and traits under `traits`: the scale of the
    /// traits (2 when they give none), their appearance and text size, and every other trait the stage's
    /// views see in `UITraitCollection.current`.
    package static func stage(_ config: ViewImageConfig, traits: UITraitCollection, size: CGSize) throws -> Stage {
        let merged = UITraitCollection(traitsFrom: [config.traits, traits])
        let screen = config.size ?? size
        let scale = merged.displayScale > 0 ? merged.displayScale : 2
        let stage = try Stage(device: Device(name: "snapshot", size: screen, scale: scale, safeAreaInsets: config.safeArea),
                              appearance: merged.userInterfaceStyle == .dark ? .dark : .light,
                              contentSizeCategory: merged.preferredContentSizeCategory)
        UITraitCollection.current = UITraitCollection(traitsFrom: [UITraitCollection.current, merged])
        return stage
    }
}
