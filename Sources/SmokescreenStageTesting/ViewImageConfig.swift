import SmokescreenStage

/// A device to draw a view controller on for `assertSnapshot(of: controller, as: .image(on: .iPhone13))`:
/// its screen's size (points), its safe area, and its traits (size classes, idiom, text size, scale).
///
/// swift-snapshot-testing's type and names, with its devices' sizes, safe areas and traits, so that a
/// test written for it compiles and draws the same screen here. One difference: swift-snapshot-testing
/// leaves the scale to the simulator that runs the tests, while each device here carries its own
/// (`traits.displayScale`: 2 for the SE, 8, XR and every iPad, 3 for the others); pass
/// `traits: .init(displayScale: 1)` for small references. ``iPhone15Pro`` and ``iPhone15ProMax`` are
/// Smokescreen's additions.
public struct ViewImageConfig: Sendable {
    public enum Orientation: Sendable {
        case landscape
        case portrait
    }

    /// An iPad's orientation and how much of the screen the app has beside another in Split View.
    public enum TabletOrientation: Sendable {
        public enum PortraitSplits: Sendable {
            case oneThird
            case twoThirds
            case full
        }
        public enum LandscapeSplits: Sendable {
            case oneThird
            case oneHalf
            case twoThirds
            case full
        }
        case landscape(splitView: LandscapeSplits)
        case portrait(splitView: PortraitSplits)
    }

    /// The safe area's insets (points).
    public var safeArea: UIEdgeInsets
    /// The screen (points); nil: the view controller's own size.
    public var size: CGSize?
    /// The traits the view controller sees.
    public var traits: UITraitCollection

    public init(safeArea: UIEdgeInsets = .zero, size: CGSize? = nil, traits: UITraitCollection = .init()) {
        self.safeArea = safeArea
        self.size = size
        self.traits = traits
    }

    /// A phone `width` × `height` points in portrait at `scale`, with `top`/`bottom` insets in portrait and
    /// `side`/`landscapeBottom` in landscape (none for a phone with a home button).
    static func phone(_ orientation: Orientation, width: CGFloat, height: CGFloat, scale: CGFloat,
                      top: CGFloat, bottom: CGFloat = 0, side: CGFloat = 0, landscapeBottom: CGFloat = 0) -> ViewImageConfig {
        switch orientation {
        case .portrait:
            return ViewImageConfig(safeArea: UIEdgeInsets(top: top, left: 0, bottom: bottom, right: 0), size: CGSize(width: width, height: height),
                                   traits: .phone(orientation, shorterSide: width, scale: scale))
        case .landscape:
            return ViewImageConfig(safeArea: UIEdgeInsets(top: 0, left: side, bottom: landscapeBottom, right: side), size: CGSize(width: height, height: width),
                                   traits: .phone(orientation, shorterSide: width, scale: scale))
        }
    }

    /// A pad's screen in an orientation and split: `width` × `height` points, regular width unless
    /// `compact`; @2x.
    static func pad(width: CGFloat, height: CGFloat, compact: Bool, safeArea: UIEdgeInsets) -> ViewImageConfig {
        ViewImageConfig(safeArea: safeArea, size: CGSize(width: width, height: height), traits: .pad(compact: compact))
    }

    /// A pad's configurations: the widths of one third, one half, two thirds and all of the landscape
    /// screen, and of one third, two thirds and all of the portrait one; `oneHalfIsCompact` for every
    /// pad but the 12.9-inch.
    static func pad(_ orientation: TabletOrientation, landscape: [CGFloat], portrait: [CGFloat], shorter: CGFloat, longer: CGFloat,
                    safeArea: UIEdgeInsets = UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0), oneHalfIsCompact: Bool = true) -> ViewImageConfig {
        switch orientation {
        case .landscape(let split):
            switch split {
            case .oneThird: return pad(width: landscape[0], height: shorter, compact: true, safeArea: safeArea)
            case .oneHalf: return pad(width: landscape[1], height: shorter, compact: oneHalfIsCompact, safeArea: safeArea)
            case .twoThirds: return pad(width: landscape[2], height: shorter, compact: false, safeArea: safeArea)
            case .full: return pad(width: longer, height: shorter, compact: false, safeArea: safeArea)
            }
        case .portrait(let split):
            switch split {
            case .oneThird: return pad(width: portrait[0], height: longer, compact: true, safeArea: safeArea)
            case .twoThirds: return pad(width: portrait[1], height: longer, compact: true, safeArea: safeArea)
            case .full: return pad(width: shorter, height: longer, compact: false, safeArea: safeArea)
            }
        }
    }

    static func full(_ orientation: Orientation) -> TabletOrientation {
        orientation == .landscape ? .landscape(splitView: .full) : .portrait(splitView: .full)
    }

    // MARK: Phones (portrait by default)

    /// 320 × 568 pt @2x; 20 pt status bar in portrait.
    public static let iPhoneSe = ViewImageConfig.iPhoneSe(.portrait)
    public static func iPhoneSe(_ orientation: Orientation) -> ViewImageConfig { phone(orientation, width: 320, height: 568, scale: 2, top: 20) }
    /// 375 × 667 pt @2x; 20 pt status bar in portrait.
    public static let iPhone8 = ViewImageConfig.iPhone8(.portrait)
    public static func iPhone8(_ orientation: Orientation) -> ViewImageConfig { phone(orientation, width: 375, height: 667, scale: 2, top: 20) }
    /// 414 × 736 pt @3x; 20 pt status bar in portrait.
    public static let iPhone8Plus = ViewImageConfig.iPhone8Plus(.portrait)
    public static func iPhone8Plus(_ orientation: Orientation) -> ViewImageConfig { phone(orientation, width: 414, height: 736, scale: 3, top: 20) }
    /// 375 × 812 pt @3x; insets 44/34 pt in portrait, 44 pt sides and 24 pt below in landscape.
    public static let iPhoneX = ViewImageConfig.iPhoneX(.portrait)
    public static func iPhoneX(_ orientation: Orientation) -> ViewImageConfig {
        phone(orientation, width: 375, height: 812, scale: 3, top: 44, bottom: 34, side: 44, landscapeBottom: 24)
    }
    /// 414 × 896 pt @3x; the iPhone X's insets.
    public static let iPhoneXsMax = ViewImageConfig.iPhoneXsMax(.portrait)
    public static func iPhoneXsMax(_ orientation: Orientation) -> ViewImageConfig {
        phone(orientation, width: 414, height: 896, scale: 3, top: 44, bottom: 34, side: 44, landscapeBottom: 24)
    }
    /// 414 × 896 pt @2x; the iPhone X's insets.
    public static let iPhoneXr = ViewImageConfig.iPhoneXr(.portrait)
    public static func iPhoneXr(_ orientation: Orientation) -> ViewImageConfig {
        phone(orientation, width: 414, height: 896, scale: 2, top: 44, bottom: 34, side: 44, landscapeBottom: 24)
    }
    /// 390 × 844 pt @3x; insets 47/34 pt in portrait, 47 pt sides and 21 pt below in landscape.
    public static let iPhone12 = ViewImageConfig.iPhone12(.portrait)
    public static func iPhone12(_ orientation: Orientation) -> ViewImageConfig {
        phone(orientation, width: 390, height: 844, scale: 3, top: 47, bottom: 34, side: 47, landscapeBottom: 21)
    }
    /// The iPhone 12's screen.
    public static let iPhone12Pro = ViewImageConfig.iPhone12Pro(.portrait)
    public static func iPhone12Pro(_ orientation: Orientation) -> ViewImageConfig { iPhone12(orientation) }
    /// 428 × 926 pt @3x; the iPhone 12's insets.
    public static let iPhone12ProMax = ViewImageConfig.iPhone12ProMax(.portrait)
    public static func iPhone12ProMax(_ orientation: Orientation) -> ViewImageConfig {
        phone(orientation, width: 428, height: 926, scale: 3, top: 47, bottom: 34, side: 47, landscapeBottom: 21)
    }
    /// The iPhone 12's screen.
    public static let iPhone13 = ViewImageConfig.iPhone13(.portrait)
    public static func iPhone13(_ orientation: Orientation) -> ViewImageConfig { iPhone12(orientation) }
    /// 375 × 812 pt @3x; insets 50/34 pt in portrait, 50 pt sides and 21 pt below in landscape.
    public static let iPhone13Mini = ViewImageConfig.iPhone13Mini(.portrait)
    public static func iPhone13Mini(_ orientation: Orientation) -> ViewImageConfig {
        phone(orientation, width: 375, height: 812, scale: 3, top: 50, bottom: 34, side: 50, landscapeBottom: 21)
    }
    /// The iPhone 12's screen.
    public static let iPhone13Pro = ViewImageConfig.iPhone13Pro(.portrait)
    public static func iPhone13Pro(_ orientation: Orientation) -> ViewImageConfig { iPhone12(orientation) }
    /// The iPhone 12 Pro Max's screen.
    public static let iPhone13ProMax = ViewImageConfig.iPhone13ProMax(.portrait)
    public static func iPhone13ProMax(_ orientation: Orientation) -> ViewImageConfig { iPhone12ProMax(orientation) }
    /// 393 × 852 pt @3x; insets 59/34 pt in portrait (the Dynamic Island), 59 pt sides and 21 pt below in
    /// landscape. Smokescreen's addition (``Device/iPhone15``'s screen).
    public static let iPhone15Pro = ViewImageConfig.iPhone15Pro(.portrait)
    public static func iPhone15Pro(_ orientation: Orientation) -> ViewImageConfig {
        phone(orientation, width: 393, height: 852, scale: 3, top: 59, bottom: 34, side: 59, landscapeBottom: 21)
    }
    /// 430 × 932 pt @3x; the iPhone 15 Pro's insets. Smokescreen's addition.
    public static let iPhone15ProMax = ViewImageConfig.iPhone15ProMax(.portrait)
    public static func iPhone15ProMax(_ orientation: Orientation) -> ViewImageConfig {
        phone(orientation, width: 430, height: 932, scale: 3, top: 59, bottom: 34, side: 59, landscapeBottom: 21)
    }

    // MARK: Pads (landscape, full screen, by default; @2x)

    /// 1024 × 768 pt; 20 pt status bar.
    public static let iPadMini = ViewImageConfig.iPadMini(.landscape)
    public static func iPadMini(_ orientation: Orientation) -> ViewImageConfig { iPadMini(full(orientation)) }
    public static func iPadMini(_ orientation: TabletOrientation) -> ViewImageConfig {
        pad(orientation, landscape: [320, 507, 694], portrait: [320, 438], shorter: 768, longer: 1024)
    }
    /// The iPad mini's screen.
    public static let iPad9_7 = iPadMini
    public static func iPad9_7(_ orientation: Orientation) -> ViewImageConfig { iPadMini(orientation) }
    public static func iPad9_7(_ orientation: TabletOrientation) -> ViewImageConfig { iPadMini(orientation) }
    /// 1080 × 810 pt; 20 pt status bar.
    public static let iPad10_2 = ViewImageConfig.iPad10_2(.landscape)
    public static func iPad10_2(_ orientation: Orientation) -> ViewImageConfig { iPad10_2(full(orientation)) }
    public static func iPad10_2(_ orientation: TabletOrientation) -> ViewImageConfig {
        pad(orientation, landscape: [320, 535, 750], portrait: [320, 480], shorter: 810, longer: 1080)
    }
    /// 1112 × 834 pt; 20 pt status bar.
    public static let iPadPro10_5 = ViewImageConfig.iPadPro10_5(.landscape)
    public static func iPadPro10_5(_ orientation: Orientation) -> ViewImageConfig { iPadPro10_5(full(orientation)) }
    public static func iPadPro10_5(_ orientation: TabletOrientation) -> ViewImageConfig {
        pad(orientation, landscape: [320, 551, 782], portrait: [320, 504], shorter: 834, longer: 1112)
    }
    /// 1194 × 834 pt; insets 24 pt above, 20 pt below.
    public static let iPadPro11 = ViewImageConfig.iPadPro11(.landscape)
    public static func iPadPro11(_ orientation: Orientation) -> ViewImageConfig { iPadPro11(full(orientation)) }
    public static func iPadPro11(_ orientation: TabletOrientation) -> ViewImageConfig {
        pad(orientation, landscape: [375, 592, 809], portrait: [320, 504], shorter: 834, longer: 1194,
            safeArea: UIEdgeInsets(top: 24, left: 0, bottom: 20, right: 0))
    }
    /// 1366 × 1024 pt; 20 pt status bar; half of the landscape screen is regular width.
    public static let iPadPro12_9 = ViewImageConfig.iPadPro12_9(.landscape)
    public static func iPadPro12_9(_ orientation: Orientation) -> ViewImageConfig { iPadPro12_9(full(orientation)) }
    public static func iPadPro12_9(_ orientation: TabletOrientation) -> ViewImageConfig {
        pad(orientation, landscape: [375, 678, 981], portrait: [375, 639], shorter: 1024, longer: 1366, oneHalfIsCompact: false)
    }
}

extension UITraitCollection {
    /// A phone's traits, as swift-snapshot-testing gives them: left to right, force touch, the medium
    /// text size, compact wide (regular in landscape when the shorter side is 414 points or more),
    /// regular tall in portrait and compact in landscape; and `scale` (see ``ViewImageConfig``).
    static func phone(_ orientation: ViewImageConfig.Orientation, shorterSide: CGFloat, scale: CGFloat) -> UITraitCollection {
        let landscape = orientation == .landscape
        return UITraitCollection(traitsFrom: [
            UITraitCollection(forceTouchCapability: .available), UITraitCollection(layoutDirection: .leftToRight),
            UITraitCollection(preferredContentSizeCategory: .medium), UITraitCollection(userInterfaceIdiom: .phone),
            UITraitCollection(horizontalSizeClass: landscape && shorterSide >= 414 ? .regular : .compact),
            UITraitCollection(verticalSizeClass: landscape ? .compact : .regular), UITraitCollection(displayScale: scale),
        ])
    }

    /// A pad's traits: regular both ways (compact wide in a narrow split), @2x.
    static func pad(compact: Bool) -> UITraitCollection {
        UITraitCollection(traitsFrom: [
            UITraitCollection(horizontalSizeClass: compact ? .compact : .regular), UITraitCollection(verticalSizeClass: .regular),
            UITraitCollection(userInterfaceIdiom: .pad), UITraitCollection(displayScale: 2),
        ])
    }

    public static func iPhoneSe(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhoneSe(orientation).traits }
    public static func iPhone8(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhone8(orientation).traits }
    public static func iPhone8Plus(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhone8Plus(orientation).traits }
    public static func iPhoneX(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhoneX(orientation).traits }
    public static func iPhoneXsMax(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhoneXsMax(orientation).traits }
    public static func iPhoneXr(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhoneXr(orientation).traits }
    public static func iPhone12(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhone12(orientation).traits }
    public static func iPhone12ProMax(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhone12ProMax(orientation).traits }
    public static func iPhone13(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhone13(orientation).traits }
    public static func iPhone13ProMax(_ orientation: ViewImageConfig.Orientation) -> UITraitCollection { ViewImageConfig.iPhone13ProMax(orientation).traits }
    public static let iPadMini = UITraitCollection.pad(compact: false)
    public static let iPadMini_Compact_SplitView = UITraitCollection.pad(compact: true)
    public static let iPad9_7 = iPadMini
    public static let iPad9_7_Compact_SplitView = iPadMini_Compact_SplitView
    public static let iPad10_2 = iPadMini
    public static let iPad10_2_Compact_SplitView = iPadMini_Compact_SplitView
    public static let iPadPro10_5 = iPadMini
    public static let iPadPro10_5_Compact_SplitView = iPadMini_Compact_SplitView
    public static let iPadPro11 = iPadMini
    public static let iPadPro11_Compact_SplitView = iPadMini_Compact_SplitView
    public static let iPadPro12_9 = iPadMini
    public static let iPadPro12_9_Compact_SplitView = iPadMini_Compact_SplitView
}
