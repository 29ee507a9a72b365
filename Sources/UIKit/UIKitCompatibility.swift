// Names that iOS transition code reaches for beside its animations: the application, the device,
// haptics, blur views and the literal types. Each does what it can without a device, and says where it
// differs.

internal import RasterCore
package import SnapshotView

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

/// A blur of what is behind a view, with the tint and saturation of a material: drawn by a
/// ``UIVisualEffectView`` (see ``material`` for the numbers, which are estimated).
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

    /// The material for the current appearance (light or dark, for the styles that adapt). Apple publishes
    /// the materials' names and their order from most to least translucent, not their numbers: every
    /// material here blurs by a Gaussian of σ 10 pt and scales saturation by 1.8 (the figures of iOS 7's
    /// light backdrop settings), then draws a tint over it, white (or #1C1C1E in dark appearance) at 30,
    /// 50, 65, 80 % for ultra thin, thin, regular and thick, and a near-white (#F7F7F7, or #1F1F1F) chrome at
    /// 75 %; `.light` is the ultra-thin tint, `.extraLight` near-white at 60 %, `.dark` #1C1C1E at 73 %,
    /// `.extraDark` at 80 %; `.regular` and `.prominent` follow the appearance.
    package var material: Backdrop {
        let dark = UIColor(dynamicProvider: { $0.userInterfaceStyle == .dark ? .black : .white }).color.red < 0.5
        enum Thickness { case ultraThin, thin, regular, thick, chrome }
        func system(_ t: Thickness, dark: Bool) -> Backdrop {
            let alpha: Double = switch t {
            case .ultraThin: dark ? 0.35 : 0.30
            case .thin: dark ? 0.55 : 0.50
            case .regular: dark ? 0.70 : 0.65
            case .thick: dark ? 0.85 : 0.80
            case .chrome: dark ? 0.80 : 0.75
            }
            let level = t == .chrome ? (dark ? 31.0 : 247.0) : (dark ? 28.0 : 255.0)
            let grey = Color(red8: UInt8(level), green8: UInt8(level), blue8: UInt8(dark && t != .chrome ? 30 : level), alpha: alpha)
            return Backdrop(sigma: 10, saturation: 1.8, tint: grey)
        }
        switch style {
        case .extraLight: return Backdrop(sigma: 10, saturation: 1.8, tint: Color(red8: 247, green8: 247, blue8: 247, alpha: 0.6))
        case .light: return system(.ultraThin, dark: false)
        case .dark: return Backdrop(sigma: 10, saturation: 1.8, tint: Color(red8: 28, green8: 28, blue8: 30, alpha: 0.73))
        case .extraDark: return Backdrop(sigma: 10, saturation: 1.8, tint: Color(red8: 28, green8: 28, blue8: 30, alpha: 0.8))
        case .regular: return system(.regular, dark: dark)
        case .prominent: return dark ? Backdrop(sigma: 10, saturation: 1.8, tint: Color(red8: 28, green8: 28, blue8: 30, alpha: 0.8))
            : Backdrop(sigma: 10, saturation: 1.8, tint: Color(red8: 247, green8: 247, blue8: 247, alpha: 0.6))
        case .systemUltraThinMaterial: return system(.ultraThin, dark: dark)
        case .systemThinMaterial: return system(.thin, dark: dark)
        case .systemMaterial: return system(.regular, dark: dark)
        case .systemThickMaterial: return system(.thick, dark: dark)
        case .systemChromeMaterial: return system(.chrome, dark: dark)
        case .systemUltraThinMaterialLight: return system(.ultraThin, dark: false)
        case .systemThinMaterialLight: return system(.thin, dark: false)
        case .systemMaterialLight: return system(.regular, dark: false)
        case .systemThickMaterialLight: return system(.thick, dark: false)
        case .systemChromeMaterialLight: return system(.chrome, dark: false)
        case .systemUltraThinMaterialDark: return system(.ultraThin, dark: true)
        case .systemThinMaterialDark: return system(.thin, dark: true)
        case .systemMaterialDark: return system(.regular, dark: true)
        case .systemThickMaterialDark: return system(.thick, dark: true)
        case .systemChromeMaterialDark: return system(.chrome, dark: true)
        }
    }
}

open class UIVibrancyEffect: UIVisualEffect {
    public init(blurEffect: UIBlurEffect) { super.init() }
}

/// A view that shows a visual effect behind its `contentView`: a ``UIBlurEffect`` blurs what is drawn
/// behind the view (its rounded bounds) and tints it as its material says. Setting `effect` inside an
/// animation block animates the blur in or out (from or to none), as in UIKit. A vibrancy effect draws the
/// content as it is.
open class UIVisualEffectView: UIView {
    /// The effect; nil shows none.
    open var effect: UIVisualEffect? {
        didSet { showMaterial((effect as? UIBlurEffect)?.material) }
    }

    /// Sets the backing view's backdrop; to or from no effect, through the material's tint at alpha 0, so
    /// an animation block fades the tint in or out rather than through clear black.
    private func showMaterial(_ material: Backdrop?) {
        let current = backing.backdrop
        if let material {
            if !current.isVisible {
                var start = Backdrop.none
                start.tint = Color(red: material.tint.red, green: material.tint.green, blue: material.tint.blue, alpha: 0)
                ViewChangeObservation.withoutObserver { backing.backdrop = start }
            }
            backing.backdrop = material
        } else if current.isVisible {
            var end = Backdrop.none
            end.tint = Color(red: current.tint.red, green: current.tint.green, blue: current.tint.blue, alpha: 0)
            backing.backdrop = end
        }
    }
    /// Where the content goes.
    public let contentView = UIView()

    public init(effect: UIVisualEffect?) {
        super.init(frame: .zero)
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
        self.effect = effect
        showMaterial((effect as? UIBlurEffect)?.material)
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
