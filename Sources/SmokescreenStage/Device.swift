@_exported import UIKit

/// A device a stage draws: the screen in points (portrait), its scale and its safe-area insets.
public struct Device: Sendable, Hashable, CustomStringConvertible {
    /// What the device is called (for messages and manifests).
    public var name: String
    /// The screen in points.
    public var size: CGSize
    /// Pixels per point.
    public var scale: CGFloat
    /// The safe area's insets (points): the status bar or island above, the home indicator below.
    public var safeAreaInsets: UIEdgeInsets

    /// The safe area's insets (points) once the device is turned to landscape (``landscape``); nil: from
    /// the portrait ones by iOS's rule (below).
    public var landscapeSafeAreaInsets: UIEdgeInsets?

    /// A device of your own: `size` points at `scale`, with `safeAreaInsets` (default none) and the insets
    /// it has turned to landscape (default nil: from the portrait ones, see ``landscape``).
    public init(name: String, size: CGSize, scale: CGFloat, safeAreaInsets: UIEdgeInsets = .zero, landscapeSafeAreaInsets: UIEdgeInsets? = nil) {
        self.name = name
        self.size = size
        self.scale = scale
        self.safeAreaInsets = safeAreaInsets
        self.landscapeSafeAreaInsets = landscapeSafeAreaInsets
    }

    /// Whether the screen is wider than it is tall.
    public var isLandscape: Bool { size.width > size.height }

    /// Whether it is a phone (its shorter side under 600 points: the largest phone's is 440, the iPad
    /// mini's 744): a phone hides its status bar in landscape, and its bars there are compact (32 points).
    public var isPhone: Bool { min(size.width, size.height) < 600 }

    /// The device turned on its side, the home indicator or button to the right (as iOS's
    /// `landscapeLeft` interface orientation); itself when it is already wider than tall. Its insets are
    /// ``landscapeSafeAreaInsets`` when given; otherwise, as iOS's: a phone with a notch or island
    /// (its portrait top above 20 points) keeps that much on both sides and 21 points below, a phone
    /// with a home button has none (its status bar hides), and a pad keeps its top and bottom.
    public var landscape: Device {
        guard !isLandscape else { return self }
        let insets: UIEdgeInsets
        if let given = landscapeSafeAreaInsets {
            insets = given
        } else if !isPhone {
            insets = safeAreaInsets
        } else if safeAreaInsets.top > 20 {
            insets = UIEdgeInsets(top: 0, left: safeAreaInsets.top, bottom: safeAreaInsets.bottom > 0 ? 21 : 0, right: safeAreaInsets.top)
        } else {
            insets = .zero
        }
        return Device(name: name + " (landscape)", size: CGSize(width: size.height, height: size.width), scale: scale, safeAreaInsets: insets,
                      landscapeSafeAreaInsets: landscapeSafeAreaInsets)
    }

    /// 393 × 852 pt at @3x; insets 59 pt above, 34 pt below (in landscape 59 pt each side, 21 below).
    public static let iPhone15 = Device(name: "iPhone 15", size: CGSize(width: 393, height: 852), scale: 3,
                                        safeAreaInsets: UIEdgeInsets(top: 59, left: 0, bottom: 34, right: 0))
    /// 430 × 932 pt at @3x; insets 59 pt above, 34 pt below (in landscape 59 pt each side, 21 below).
    public static let iPhone15ProMax = Device(name: "iPhone 15 Pro Max", size: CGSize(width: 430, height: 932), scale: 3,
                                              safeAreaInsets: UIEdgeInsets(top: 59, left: 0, bottom: 34, right: 0))
    /// 375 × 667 pt at @2x; a 20 pt status bar, no home indicator (in landscape no insets: the status
    /// bar hides).
    public static let iPhoneSE = Device(name: "iPhone SE (3rd generation)", size: CGSize(width: 375, height: 667), scale: 2,
                                        safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0))
    /// 820 × 1180 pt at @2x; insets 24 pt above, 20 pt below (in landscape too).
    public static let iPadAir = Device(name: "iPad Air 11-inch", size: CGSize(width: 820, height: 1180), scale: 2,
                                       safeAreaInsets: UIEdgeInsets(top: 24, left: 0, bottom: 20, right: 0))

    public var description: String { "\(name) (\(Int(size.width)) × \(Int(size.height)) pt @\(Int(scale))x)" }
}

// The main queue and timers on the stage's clock (UIKit's, which shadow Dispatch's and Foundation's):
// named again here so that they shadow them in files that import this module too.
public typealias DispatchQueue = UIKit.DispatchQueue
public typealias Timer = UIKit.Timer
