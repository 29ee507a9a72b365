internal import ConstraintSolver

/// How much a constraint matters, UIKit's `UILayoutPriority`: 1…1000, ``required`` by default. Optional
/// constraints are met as closely as their priorities allow; see ``NSLayoutConstraint`` for how
/// priorities weigh against each other here.
public struct UILayoutPriority: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var rawValue: Float
    public init(rawValue: Float) { self.rawValue = rawValue }
    public init(_ rawValue: Float) { self.rawValue = rawValue }
    public init(floatLiteral value: Float) { rawValue = value }
    public init(integerLiteral value: Int) { rawValue = Float(value) }

    public static let required = UILayoutPriority(1000)
    public static let defaultHigh = UILayoutPriority(750)
    public static let dragThatCanResizeScene = UILayoutPriority(510)
    public static let sceneSizeStayPut = UILayoutPriority(500)
    public static let dragThatCannotResizeScene = UILayoutPriority(490)
    public static let defaultLow = UILayoutPriority(250)
    public static let fittingSizeLevel = UILayoutPriority(50)

    public static func < (lhs: UILayoutPriority, rhs: UILayoutPriority) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func + (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue + rhs) }
    public static func - (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue - rhs) }

    /// The weight of an optional constraint's error per point: 2^(priority / 50), so each 50 of priority
    /// doubles it (250 against 750 is 1 : 1024) and 999 weighs about a million. Required is not a weight.
    var weight: Double { Double(rawValue) >= 1000 ? Strength.required : pow(2, Double(max(1, rawValue)) / 50) }
}

/// A relation between two attributes of layout items (views and layout guides), UIKit's:
/// `firstItem.firstAttribute  relation  multiplier × secondItem.secondAttribute + constant`, in points.
///
/// Activate it (``isActive``, ``activate(_:)``) to have the layout engine of the items' nearest common
/// ancestor satisfy it at the next layout pass; change ``constant`` to move it (inside an animation block,
/// followed by `layoutIfNeeded()`, the frames it changes animate). What differs from UIKit: see
/// docs/uikit.md ("Auto Layout").
open class NSLayoutConstraint: NSObject {
    /// An attribute of a layout item, with Apple's raw values.
    public enum Attribute: Int, Sendable {
        case left = 1, right, top, bottom, leading, trailing, width, height, centerX, centerY, lastBaseline, firstBaseline
        case leftMargin, rightMargin, topMargin, bottomMargin, leadingMargin, trailingMargin
        case centerXWithinMargins, centerYWithinMargins
        case notAnAttribute = 0
        @available(swift, deprecated: 4.0, renamed: "lastBaseline")
        public static let baseline = Attribute.lastBaseline
    }

    /// How the two sides compare, with Apple's raw values.
    public enum Relation: Int, Sendable {
        case lessThanOrEqual = -1, equal = 0, greaterThanOrEqual = 1
    }

    /// A layout axis (content hugging and compression resistance are per axis).
    public enum Axis: Int, Sendable {
        case horizontal = 0, vertical = 1
    }

    /// Options of the visual format language (``constraints(withVisualFormat:options:metrics:views:)``):
    /// alignment of neighbouring views and the direction of horizontal layout.
    public struct FormatOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let alignAllLeft = FormatOptions(rawValue: 1 << 1)
        public static let alignAllRight = FormatOptions(rawValue: 1 << 2)
        public static let alignAllTop = FormatOptions(rawValue: 1 << 3)
        public static let alignAllBottom = FormatOptions(rawValue: 1 << 4)
        public static let alignAllLeading = FormatOptions(rawValue: 1 << 5)
        public static let alignAllTrailing = FormatOptions(rawValue: 1 << 6)
        public static let alignAllCenterX = FormatOptions(rawValue: 1 << 9)
        public static let alignAllCenterY = FormatOptions(rawValue: 1 << 10)
        public static let alignAllLastBaseline = FormatOptions(rawValue: 1 << 11)
        public static let alignAllFirstBaseline = FormatOptions(rawValue: 1 << 12)
        public static let directionLeadingToTrailing = FormatOptions([])
        public static let directionLeftToRight = FormatOptions(rawValue: 1 << 16)
        public static let directionRightToLeft = FormatOptions(rawValue: 2 << 16)
    }

    /// The item on the left side: a `UIView` or a `UILayoutGuide`.
    open var firstItem: AnyObject? { firstHolder }
    public let firstAttribute: Attribute
    public let relation: Relation
    /// The item on the right side; nil for a constant (`width == 100`).
    open var secondItem: AnyObject? { secondHolder }
    public let secondAttribute: Attribute
    public let multiplier: CGFloat
    // Held weakly, as UIKit holds them: a view keeps its constraints, not the other way round (a view's
    // constraint on itself would otherwise keep it alive for ever).
    private weak var firstHolder: AnyObject?
    private weak var secondHolder: AnyObject?

    /// Points added to the right side. Changing it on an active constraint re-solves incrementally at the
    /// next layout pass (`layoutIfNeeded()` inside an animation block animates the frames it moves).
    open var constant: CGFloat {
        didSet {
            guard constant != oldValue else { return }
            if !constant.isFinite {
                UIKitLog.warn("\(self): a constant of \(constant) is not a number of points; the constant stays \(oldValue)")
                constant = oldValue
                return
            }
            LayoutEngine.constantDidChange(self)
        }
    }

    /// Default ``UILayoutPriority/required``. UIKit does not allow a change between required and optional
    /// on an active constraint (it raises); here such a change is logged and ignored.
    open var priority: UILayoutPriority = .required {
        didSet {
            guard priority != oldValue else { return }
            let clamped = UILayoutPriority(priority.rawValue.isFinite ? min(1000, max(1, priority.rawValue)) : 1000)
            if clamped != priority {
                UIKitLog.warn("A priority of \(priority.rawValue) is outside 1 … 1000 (UIKit raises); \(clamped.rawValue) is used")
                priority = clamped
                return
            }
            if isActive, (oldValue == .required) != (priority == .required) {
                UIKitLog.warn("Mutating a priority from required to not on an installed constraint (or vice-versa) is not supported. You passed priority \(priority.rawValue) and the existing priority was \(oldValue.rawValue).")
                priority = oldValue
                return
            }
            LayoutEngine.constraintsDidChange(of: self)
        }
    }

    /// A name shown in logs (UIKit's unsatisfiable-constraints report).
    open var identifier: String?
    open var shouldBeArchived = false

    /// Whether the engine of the items' nearest common ancestor holds it. Setting true for items with no
    /// common ancestor is logged (UIKit raises) and leaves it inactive.
    open var isActive: Bool {
        get { installedOn != nil }
        set {
            if newValue { LayoutEngine.activate(self) } else { LayoutEngine.deactivate(self) }
        }
    }

    /// The view whose ``UIView/constraints`` hold it while active (the nearest common ancestor).
    weak var installedOn: UIView?
    /// Unsatisfiable when activated: active, not in the solver (UIKit's "breaking constraint").
    var isBroken = false

    /// `view1.attr1 relation multiplier × view2.attr2 + c` (UIKit's designated initializer).
    public init(item view1: Any, attribute attr1: Attribute, relatedBy relation: Relation,
                toItem view2: Any?, attribute attr2: Attribute, multiplier: CGFloat, constant c: CGFloat) {
        let first = view1 as AnyObject
        let second = view2.map { $0 as AnyObject }
        firstHolder = first
        secondHolder = second
        firstAttribute = attr1
        self.relation = relation
        secondAttribute = second == nil ? .notAnAttribute : attr2
        self.multiplier = multiplier.isFinite ? multiplier : 1
        constant = c.isFinite ? c : 0
        if !multiplier.isFinite || !c.isFinite {
            UIKitLog.warn("A constraint's \(multiplier.isFinite ? "constant \(c)" : "multiplier \(multiplier)") is not a number (UIKit raises); \(multiplier.isFinite ? "0" : "1") is used")
        }
        super.init()
    }

    /// An empty constraint (no items), as `NSObject`'s initializer makes one: a placeholder to be replaced
    /// before it is activated (activating it is logged and ignored).
    public override convenience init() {
        self.init(placeholder: ())
    }

    private init(placeholder: Void) {
        firstHolder = nil
        secondHolder = nil
        firstAttribute = .notAnAttribute
        relation = .equal
        secondAttribute = .notAnAttribute
        multiplier = 1
        constant = 0
        super.init()
    }

    /// The anchors of the two sides.
    open var firstAnchor: NSLayoutAnchor<AnyObject> { NSLayoutAnchor<AnyObject>(item: firstHolder, attribute: firstAttribute) }
    open var secondAnchor: NSLayoutAnchor<AnyObject>? {
        secondHolder.map { NSLayoutAnchor<AnyObject>(item: $0, attribute: secondAttribute) }
    }

    /// Activates each constraint (more efficiently than one by one, as UIKit's).
    open class func activate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = true }
    }

    open class func deactivate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = false }
    }

    /// The items as `LayoutItem`s (views and guides), when they are.
    var firstLayoutItem: LayoutItem? { firstHolder as? LayoutItem }
    var secondLayoutItem: LayoutItem? { secondHolder as? LayoutItem }

    open override var description: String {
        var text = "<NSLayoutConstraint:0x\(String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16))"
        if let identifier { text += " '\(identifier)'" }
        text += " \(Self.describe(firstHolder)).\(firstAttribute.name)"
        text += [.lessThanOrEqual: " <= ", .equal: " == ", .greaterThanOrEqual: " >= "][relation]!
        if let secondHolder {
            if multiplier != 1 { text += "\(Self.number(multiplier))*" }
            text += "\(Self.describe(secondHolder)).\(secondAttribute.name)"
            if constant != 0 { text += constant > 0 ? " + \(Self.number(constant))" : " - \(Self.number(-constant))" }
        } else {
            text += Self.number(constant)
        }
        if priority != .required { text += "   (priority \(Self.number(CGFloat(priority.rawValue))))" }
        text += isActive ? "   (active)>" : ">"
        return text
    }

    static func describe(_ item: AnyObject?) -> String {
        guard let item else { return "nil" }
        if let guide = item as? UILayoutGuide { return "UILayoutGuide:'\(guide.identifier)'" }
        return "\(type(of: item)):0x\(String(UInt(bitPattern: ObjectIdentifier(item).hashValue), radix: 16))"
    }

    static func number(_ value: CGFloat) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%g", Double(value))
    }
}

extension NSLayoutConstraint.Attribute {
    /// UIKit's name of the attribute in logs.
    var name: String {
        switch self {
        case .left: "left"
        case .right: "right"
        case .top: "top"
        case .bottom: "bottom"
        case .leading: "leading"
        case .trailing: "trailing"
        case .width: "width"
        case .height: "height"
        case .centerX: "centerX"
        case .centerY: "centerY"
        case .lastBaseline: "lastBaseline"
        case .firstBaseline: "firstBaseline"
        case .leftMargin: "leftMargin"
        case .rightMargin: "rightMargin"
        case .topMargin: "topMargin"
        case .bottomMargin: "bottomMargin"
        case .leadingMargin: "leadingMargin"
        case .trailingMargin: "trailingMargin"
        case .centerXWithinMargins: "centerXWithinMargins"
        case .centerYWithinMargins: "centerYWithinMargins"
        case .notAnAttribute: "notAnAttribute"
        }
    }

    /// The axis the attribute lies on (nil for none).
    var isVertical: Bool {
        switch self {
        case .top, .bottom, .height, .centerY, .lastBaseline, .firstBaseline, .topMargin, .bottomMargin, .centerYWithinMargins: true
        default: false
        }
    }
}
