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
    /// Whether the status bar is hidden (deprecated in UIKit): kept; the stage draws no status bar.
    open var isStatusBarHidden = false
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
    /// A pad when the screen's shorter side is 600 points or more (the stage's device; the iPad mini's is
    /// 744, the largest phone's 440), else a phone, in either orientation.
    open var userInterfaceIdiom: UIUserInterfaceIdiom { min(UIScreen.main.bounds.width, UIScreen.main.bounds.height) >= 600 ? .pad : .phone }
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

    /// Whether the material is a dark one: the styles that say so, and the adaptive ones in the dark
    /// appearance.
    package var isDark: Bool {
        switch style {
        case .systemUltraThinMaterialLight, .systemThinMaterialLight, .systemMaterialLight, .systemThickMaterialLight,
             .systemChromeMaterialLight, .extraLight, .light:
            return false
        case .systemUltraThinMaterialDark, .systemThinMaterialDark, .systemMaterialDark, .systemThickMaterialDark,
             .systemChromeMaterialDark, .dark, .extraDark:
            return true
        default:
            return Self.appearanceIsDark
        }
    }

    /// Whether the current appearance is the dark one (what the adaptive styles follow).
    private static var appearanceIsDark: Bool {
        UIColor(dynamicProvider: { $0.userInterfaceStyle == .dark ? .black : .white }).color.red < 0.5
    }

    /// The material for the current appearance (light or dark, for the styles that adapt): estimated, as
    /// `Backdrop.material(_:dark:)` says (Apple publishes the materials' order, not their numbers).
    package var material: Backdrop {
        let dark = Self.appearanceIsDark
        switch style {
        case .extraLight: return .material(.extraLight, dark: dark)
        case .light: return .material(.light, dark: dark)
        case .dark: return .material(.dark, dark: dark)
        case .extraDark: return .material(.extraDark, dark: dark)
        case .regular: return .material(.regular, dark: dark)
        case .prominent: return .material(dark ? .extraDark : .extraLight, dark: dark)
        case .systemUltraThinMaterial: return .material(.ultraThin, dark: dark)
        case .systemThinMaterial: return .material(.thin, dark: dark)
        case .systemMaterial: return .material(.regular, dark: dark)
        case .systemThickMaterial: return .material(.thick, dark: dark)
        case .systemChromeMaterial: return .material(.chrome, dark: dark)
        case .systemUltraThinMaterialLight: return .material(.ultraThin, dark: false)
        case .systemThinMaterialLight: return .material(.thin, dark: false)
        case .systemMaterialLight: return .material(.regular, dark: false)
        case .systemThickMaterialLight: return .material(.thick, dark: false)
        case .systemChromeMaterialLight: return .material(.chrome, dark: false)
        case .systemUltraThinMaterialDark: return .material(.ultraThin, dark: true)
        case .systemThinMaterialDark: return .material(.thin, dark: true)
        case .systemMaterialDark: return .material(.regular, dark: true)
        case .systemThickMaterialDark: return .material(.thick, dark: true)
        case .systemChromeMaterialDark: return .material(.chrome, dark: true)
        }
    }
}

/// The vibrancy styles of iOS 13 (Apple's raw values), for the system materials.
public enum UIVibrancyEffectStyle: Int, Sendable {
    case label, secondaryLabel, tertiaryLabel, quaternaryLabel
    case fill, secondaryFill, tertiaryFill
    case separator
}

/// Vibrancy for the content of a ``UIVisualEffectView`` over a blur. With a style (iOS 13), as Apple's
/// header says, only the alpha of the content is used and its colour ignored, except `.label`, which
/// passes colour through: here the content is drawn in the style's colour (the semantic colour of the same
/// name — `secondaryLabel`, `systemFill`, `separator`… — in the blur's appearance) through its alpha, by
/// normal blending. iOS blends vibrant content with private filters that make it take colour from what is
/// behind; that is not reproduced. `init(blurEffect:)` (iOS 8's vibrancy) and `.label` draw the content
/// as it is.
open class UIVibrancyEffect: UIVisualEffect {
    /// The blur the vibrancy goes with (not public in UIKit either).
    let blurEffect: UIBlurEffect
    /// The style; nil for `init(blurEffect:)`.
    let style: UIVibrancyEffectStyle?

    public init(blurEffect: UIBlurEffect) {
        self.blurEffect = blurEffect
        style = nil
        super.init()
    }

    public init(blurEffect: UIBlurEffect, style: UIVibrancyEffectStyle) {
        self.blurEffect = blurEffect
        self.style = style
        super.init()
    }

    /// The colour the content is drawn in through its alpha; nil: as it is.
    var contentColor: Color? {
        let semantic: UIColor
        switch style {
        case nil, .label?: return nil
        case .secondaryLabel?: semantic = .secondaryLabel
        case .tertiaryLabel?: semantic = .tertiaryLabel
        case .quaternaryLabel?: semantic = .quaternaryLabel
        case .fill?: semantic = .systemFill
        case .secondaryFill?: semantic = .secondarySystemFill
        case .tertiaryFill?: semantic = .tertiarySystemFill
        case .separator?: semantic = .separator
        }
        return semantic.resolvedColor(with: UITraitCollection(userInterfaceStyle: blurEffect.isDark ? .dark : .light)).color
    }
}

/// A view that shows a visual effect behind its `contentView`: a ``UIBlurEffect`` blurs what is drawn
/// behind the view (its rounded bounds) and tints it as its material says. Setting `effect` inside an
/// animation block animates the blur in or out (from or to none), as in UIKit. A ``UIVibrancyEffect``
/// draws the content view's subviews as its style says.
open class UIVisualEffectView: UIView {
    /// The effect; nil shows none.
    open var effect: UIVisualEffect? {
        didSet {
            showMaterial((effect as? UIBlurEffect)?.material)
            showVibrancy()
        }
    }

    /// The content's colour under a vibrancy effect, for the current appearance.
    private func showVibrancy() {
        contentView.backing.vibrancyColor = (effect as? UIVibrancyEffect)?.contentColor
    }

    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        showVibrancy()
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
        showVibrancy()
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

/// Interface Builder's nib files: there are none on Linux. A nib names what code would load; loading it
/// makes nothing and the stage's `warnings` say so, so that code which registers or loads nibs compiles.
open class UINib: NSObject {
    public let name: String

    public init(nibName name: String, bundle bundleOrNil: Bundle?) {
        self.name = name
        super.init()
    }

    /// Nothing: there are no nibs here (logged).
    open func instantiate(withOwner ownerOrNil: Any?, options optionsOrNil: [UINib.OptionsKey: Any]? = nil) -> [Any] {
        UIKitLog.warn("UINib \"\(name)\": there are no nibs here; nothing is loaded")
        return []
    }

    public struct OptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let externalObjects = OptionsKey(rawValue: "UINibExternalObjects")
    }
}

extension Bundle {
    /// UIKit's nib loading: there are no nibs here; nil, logged.
    public func loadNibNamed(_ name: String, owner: Any?, options: [UINib.OptionsKey: Any]? = nil) -> [Any]? {
        UIKitLog.warn("Bundle.loadNibNamed(\"\(name)\"): there are no nibs here; nothing is loaded")
        return nil
    }
}

extension UITableView {
    /// Cells from a nib: there are none here (logged); the identifier dequeues plain cells.
    public func register(_ nib: UINib?, forCellReuseIdentifier identifier: String) {
        UIKitLog.warn("UITableView.register(UINib \"\(nib?.name ?? "nil")\"): there are no nibs here; \"\(identifier)\" makes plain cells")
        register(UITableViewCell.self, forCellReuseIdentifier: identifier)
    }

    public func register(_ nib: UINib?, forHeaderFooterViewReuseIdentifier identifier: String) {
        UIKitLog.warn("UITableView.register(UINib \"\(nib?.name ?? "nil")\"): there are no nibs here; \"\(identifier)\" makes plain header views")
        register(UITableViewHeaderFooterView.self, forHeaderFooterViewReuseIdentifier: identifier)
    }
}

extension UICollectionView {
    /// Cells from a nib: there are none here (logged); the identifier dequeues plain cells.
    public func register(_ nib: UINib?, forCellWithReuseIdentifier identifier: String) {
        UIKitLog.warn("UICollectionView.register(UINib \"\(nib?.name ?? "nil")\"): there are no nibs here; \"\(identifier)\" makes plain cells")
        register(UICollectionViewCell.self, forCellWithReuseIdentifier: identifier)
    }

    public func register(_ nib: UINib?, forSupplementaryViewOfKind kind: String, withReuseIdentifier identifier: String) {
        UIKitLog.warn("UICollectionView.register(UINib \"\(nib?.name ?? "nil")\"): there are no nibs here; \"\(identifier)\" makes plain views")
        register(UICollectionReusableView.self, forSupplementaryViewOfKind: kind, withReuseIdentifier: identifier)
    }
}

// The Objective-C runtime's associated objects, which categories written in Swift use to add stored
// properties to UIKit's classes: a table beside the objects, by object and key. An entry lives as long
// as the table (the stage's run), not as long as its object.

/// How an associated object is held (all are held strongly here).
public enum objc_AssociationPolicy: UInt, Sendable {
    case OBJC_ASSOCIATION_ASSIGN = 0
    case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
    case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
    case OBJC_ASSOCIATION_RETAIN = 769
    case OBJC_ASSOCIATION_COPY = 771
}

private struct AssociationKey: Hashable {
    let object: ObjectIdentifier
    let key: UnsafeRawPointer
}

nonisolated(unsafe) private var associations: [AssociationKey: Any] = [:]

/// The value associated with `object` under `key`, or nil.
public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? {
    associations[AssociationKey(object: ObjectIdentifier(object as AnyObject), key: key)]
}

/// Associates `value` with `object` under `key` (nil removes it).
public func objc_setAssociatedObject(_ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy) {
    let k = AssociationKey(object: ObjectIdentifier(object as AnyObject), key: key)
    if let value { associations[k] = value } else { associations[k] = nil }
}

/// The accessibility settings animation code asks about (`if UIAccessibility.isReduceMotionEnabled { … }`):
/// a render runs as a device with its defaults, every setting off (video autoplay on), so code that
/// chooses a plainer animation for Reduce Motion takes its usual one. The change notifications are
/// never posted.
public enum UIAccessibility {
    public static var isReduceMotionEnabled: Bool { false }
    public static var prefersCrossFadeTransitions: Bool { false }
    public static var isReduceTransparencyEnabled: Bool { false }
    public static var isVoiceOverRunning: Bool { false }
    public static var isSwitchControlRunning: Bool { false }
    public static var isBoldTextEnabled: Bool { false }
    public static var isDarkerSystemColorsEnabled: Bool { false }
    public static var isInvertColorsEnabled: Bool { false }
    public static var isGrayscaleEnabled: Bool { false }
    public static var shouldDifferentiateWithoutColor: Bool { false }
    public static var buttonShapesEnabled: Bool { false }
    public static var isOnOffSwitchLabelsEnabled: Bool { false }
    public static var isVideoAutoplayEnabled: Bool { true }

    public static let reduceMotionStatusDidChangeNotification = Notification.Name("UIAccessibilityReduceMotionStatusDidChangeNotification")
    public static let prefersCrossFadeTransitionsStatusDidChange = Notification.Name("UIAccessibilityPrefersCrossFadeTransitionsStatusDidChangeNotification")
    public static let reduceTransparencyStatusDidChangeNotification = Notification.Name("UIAccessibilityReduceTransparencyStatusDidChangeNotification")
    public static let voiceOverStatusDidChangeNotification = Notification.Name("UIAccessibilityVoiceOverStatusDidChangeNotification")
}
