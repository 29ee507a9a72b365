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

    /// The system's side margin (points) for content in a window `width` points wide: 20 from 414 points
    /// (the Plus and Max phones, the XR, phones in landscape, every iPad), else 16, as UIKit's minimum
    /// layout margins and table cells' insets are (measured on iOS's own pictures: IOSParityTests).
    package static func systemMargin(forWidth width: CGFloat) -> CGFloat { width >= 414 ? 20 : 16 }

    /// ``systemMargin(forWidth:)`` of this screen.
    package var systemMargin: CGFloat { Self.systemMargin(forWidth: bounds.width) }

    /// Makes `screen` the main screen (the stage, when it starts).
    package static func setMain(_ screen: UIScreen) { current = screen }
}
