/// The screen the stage draws: its size in points and its scale. `UIScreen.main` is the stage's device
/// (a 390 × 844 pt screen at @3x, an iPhone 15's, until a stage says otherwise).
open class UIScreen: NSObject, @unchecked Sendable {
    /// The screen in points, origin at zero.
    open private(set) var bounds: CGRect
    /// Pixels per point.
    open private(set) var scale: CGFloat
    /// The traits of the screen: the stage's appearance and scale.
    open var traitCollection: UITraitCollection { UITraitCollection.current }

    package init(bounds: CGRect, scale: CGFloat) {
        self.bounds = bounds
        self.scale = scale
        super.init()
    }

    /// The same as ``scale`` (no display zoom here).
    open var nativeScale: CGFloat { scale }
    /// The screen in pixels.
    open var nativeBounds: CGRect { CGRect(x: 0, y: 0, width: bounds.width * scale, height: bounds.height * scale) }
    /// The screen's corner radius is not part of the API; the refresh rate is the stage's frame rate.
    open var maximumFramesPerSecond: Int { Int(StageContext.engine?.clock.fps ?? 60) }

    nonisolated(unsafe) private static var current = UIScreen(bounds: CGRect(x: 0, y: 0, width: 390, height: 844), scale: 3)

    /// The stage's screen.
    open class var main: UIScreen { current }

    /// Makes `screen` the main screen (the stage, when it starts).
    package static func setMain(_ screen: UIScreen) { current = screen }
}
