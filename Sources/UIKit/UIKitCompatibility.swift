// Names that iOS transition code reaches for beside its animations: the application, the device,
// haptics, blur views and the literal types. Each does what it can without a device, and says where it
// differs.

/// `#colorLiteral(…)` and `#imageLiteral(…)` make these, as with Apple's UIKit.
public typealias _ColorLiteralType = UIColor
public typealias _ImageLiteralType = UIImage

/// The application: its windows (the stage's) and the calls transition code makes on it.
open class UIApplication: UIResponder {
    nonisolated(unsafe) private static let sharedApplication = UIApplication()
    /// The one application.
    open class var shared: UIApplication { sharedApplication }

    /// The stage's window, once a stage shows one.
    open var windows: [UIWindow] { UIWindow.stageWindow.map { [$0] } ?? [] }
    open var keyWindow: UIWindow? { windows.first { $0.isKeyWindow } }
    /// The top of the screen above the safe area (points): the device's status bar or island.
    @available(*, deprecated, message: "use the window scene's status bar manager")
    open var statusBarFrame: CGRect {
        CGRect(x: 0, y: 0, width: UIScreen.main.bounds.width, height: UIWindow.stageWindow?.safeAreaInsets.top ?? 0)
    }
    /// Kept for code that calls them: scripted touches are never ignored.
    open func beginIgnoringInteractionEvents() {}
    open func endIgnoringInteractionEvents() {}
    open var isIgnoringInteractionEvents: Bool { false }
    /// The application is always active on a stage.
    open var applicationState: State { .active }

    public enum State: Int, Sendable { case active, inactive, background }
}

/// The device: a phone or a pad, as the stage's, in portrait.
open class UIDevice: NSObject {
    nonisolated(unsafe) private static let currentDevice = UIDevice()
    open class var current: UIDevice { currentDevice }
    /// A pad when the screen is 768 points wide or more (the stage's device), else a phone.
    open var userInterfaceIdiom: UIUserInterfaceIdiom { UIScreen.main.bounds.width >= 768 ? .pad : .phone }
    open var orientation: UIDeviceOrientation { .portrait }
    open var systemName: String { "iOS" }
    open var systemVersion: String { "17.0" }
    open var model: String { userInterfaceIdiom == .pad ? "iPad" : "iPhone" }
    open var name: String { model }
}

public enum UIUserInterfaceIdiom: Int, Sendable {
    case unspecified = -1, phone, pad, tv, carPlay, mac = 5, vision
}

public enum UIDeviceOrientation: Int, Sendable {
    case unknown, portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    public var isFlat: Bool { self == .faceUp || self == .faceDown }
    public var isValidInterfaceOrientation: Bool { isPortrait || isLandscape }
}

/// Haptics: nothing to feel on a stage; the calls are kept.
open class UIFeedbackGenerator: NSObject {
    public override init() { super.init() }
    open func prepare() {}
}

open class UISelectionFeedbackGenerator: UIFeedbackGenerator {
    open func selectionChanged() {}
}

open class UIImpactFeedbackGenerator: UIFeedbackGenerator {
    public enum FeedbackStyle: Int, Sendable { case light, medium, heavy, soft, rigid }
    public init(style: FeedbackStyle) { super.init() }
    public override init() { super.init() }
    open func impactOccurred() {}
    open func impactOccurred(intensity: CGFloat) {}
}

open class UINotificationFeedbackGenerator: UIFeedbackGenerator {
    public enum FeedbackType: Int, Sendable { case success, warning, error }
    open func notificationOccurred(_ notificationType: FeedbackType) {}
}

/// A visual effect (blur, vibrancy).
open class UIVisualEffect: NSObject {}

/// A blur of what is behind a view. Accepted, not drawn yet (Core Animation's drawing is its own
/// issue): the effect view shows its content view only, and the stage lists the blur in `notDrawn`.
open class UIBlurEffect: UIVisualEffect {
    public enum Style: Int, Sendable {
        case extraLight, light, dark, extraDark, regular, prominent
        case systemUltraThinMaterial, systemThinMaterial, systemMaterial, systemThickMaterial, systemChromeMaterial
        case systemUltraThinMaterialLight, systemThinMaterialLight, systemMaterialLight, systemThickMaterialLight, systemChromeMaterialLight
        case systemUltraThinMaterialDark, systemThinMaterialDark, systemMaterialDark, systemThickMaterialDark, systemChromeMaterialDark
    }
    public let style: Style
    public init(style: Style) {
        self.style = style
        super.init()
    }
}

open class UIVibrancyEffect: UIVisualEffect {
    public init(blurEffect: UIBlurEffect) { super.init() }
}

/// A view that shows a visual effect behind its `contentView`. The blur is not drawn yet (listed in the
/// stage's `notDrawn`); `effect` can be set inside an animation block, as in UIKit, without effect here.
open class UIVisualEffectView: UIView {
    /// The effect; nil shows none.
    open var effect: UIVisualEffect? {
        didSet { if effect is UIBlurEffect { NotDrawn.note("UIVisualEffectView blur") } }
    }
    /// Where the content goes.
    public let contentView = UIView()

    public init(effect: UIVisualEffect?) {
        super.init(frame: .zero)
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
        self.effect = effect
        if effect is UIBlurEffect { NotDrawn.note("UIVisualEffectView blur") }
    }

    public override convenience init(frame: CGRect) {
        self.init(effect: nil)
        self.frame = frame
    }

    public required init?(coder: NSCoder) { nil }

    open override func layoutSubviews() {
        super.layoutSubviews()
        contentView.frame = bounds
    }
}

extension UIWindow {
    /// The window of the stage in use (set by the window the stage makes visible).
    nonisolated(unsafe) static weak var stageWindow: UIWindow?
}

public enum UIStatusBarStyle: Int, Sendable { case `default`, lightContent, darkContent = 3 }
public enum UIStatusBarAnimation: Int, Sendable { case none, fade, slide }

/// Interface orientations a controller supports (Apple's raw values).
public struct UIInterfaceOrientationMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let portrait = UIInterfaceOrientationMask(rawValue: 1 << 1)
    public static let landscapeLeft = UIInterfaceOrientationMask(rawValue: 1 << 4)
    public static let landscapeRight = UIInterfaceOrientationMask(rawValue: 1 << 3)
    public static let portraitUpsideDown = UIInterfaceOrientationMask(rawValue: 1 << 2)
    public static let landscape: UIInterfaceOrientationMask = [.landscapeLeft, .landscapeRight]
    public static let all: UIInterfaceOrientationMask = [.portrait, .landscapeLeft, .landscapeRight, .portraitUpsideDown]
    public static let allButUpsideDown: UIInterfaceOrientationMask = [.portrait, .landscapeLeft, .landscapeRight]
}

/// How much room a trait collection's dimension has.
public enum UIUserInterfaceSizeClass: Int, Sendable { case unspecified, compact, regular }
