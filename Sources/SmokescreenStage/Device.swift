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

    /// A device of your own: `size` points at `scale`, with `safeAreaInsets` (default none).
    public init(name: String, size: CGSize, scale: CGFloat, safeAreaInsets: UIEdgeInsets = .zero) {
        self.name = name
        self.size = size
        self.scale = scale
        self.safeAreaInsets = safeAreaInsets
    }

    /// 393 × 852 pt at @3x; insets 59 pt above, 34 pt below.
    public static let iPhone15 = Device(name: "iPhone 15", size: CGSize(width: 393, height: 852), scale: 3,
                                        safeAreaInsets: UIEdgeInsets(top: 59, left: 0, bottom: 34, right: 0))
    /// 430 × 932 pt at @3x; insets 59 pt above, 34 pt below.
    public static let iPhone15ProMax = Device(name: "iPhone 15 Pro Max", size: CGSize(width: 430, height: 932), scale: 3,
                                              safeAreaInsets: UIEdgeInsets(top: 59, left: 0, bottom: 34, right: 0))
    /// 375 × 667 pt at @2x; a 20 pt status bar, no home indicator.
    public static let iPhoneSE = Device(name: "iPhone SE (3rd generation)", size: CGSize(width: 375, height: 667), scale: 2,
                                        safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0))
    /// 820 × 1180 pt at @2x; insets 24 pt above, 20 pt below.
    public static let iPadAir = Device(name: "iPad Air 11-inch", size: CGSize(width: 820, height: 1180), scale: 2,
                                       safeAreaInsets: UIEdgeInsets(top: 24, left: 0, bottom: 20, right: 0))

    public var description: String { "\(name) (\(Int(size.width)) × \(Int(size.height)) pt @\(Int(scale))x)" }
}

// The main queue and timers on the stage's clock (UIKit's, which shadow Dispatch's and Foundation's):
// named again here so that they shadow them in files that import this module too.
public typealias DispatchQueue = UIKit.DispatchQueue
public typealias Timer = UIKit.Timer
