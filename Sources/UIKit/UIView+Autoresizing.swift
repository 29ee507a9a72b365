extension UIView {
    /// How a view's frame follows its superview's size: UIKit's autoresizing mask, with Apple's raw values.
    public struct AutoresizingMask: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }

    /// Called when the bounds' size changes: resizes the subviews by their masks (when
    /// `autoresizesSubviews`) and asks for layout.
    func boundsSizeDidChange(from old: CGSize) {
        setNeedsLayout()
        guard autoresizesSubviews else { return }
        let new = bounds.size
        for view in subviews where !view.autoresizingMask.isEmpty {
            view.resize(fromSuperviewSize: old, to: new)
        }
    }

    /// UIKit's autoresizing: along each axis, the change in the superview's size is shared among the
    /// flexible parts (margins, size) in proportion to their current lengths (equally when they are all
    /// zero). Applied to `bounds` and `center`, so a transform is kept.
    private func resize(fromSuperviewSize old: CGSize, to new: CGSize) {
        let mask = autoresizingMask
        let size = bounds.size
        // The untransformed frame, about the centre.
        let frame = CGRect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
        func axis(start: CGFloat, length: CGFloat, superLength: CGFloat, delta: CGFloat,
                  flexibleStart: Bool, flexibleLength: Bool, flexibleEnd: Bool) -> (CGFloat, CGFloat) {
            let end = superLength - start - length
            let parts = [(flexibleStart, start), (flexibleLength, length), (flexibleEnd, end)].filter(\.0)
            guard !parts.isEmpty, delta != 0 else { return (start, length) }
            let total = parts.reduce(0) { $0 + max(0, $1.1) }
            func share(_ flexible: Bool, _ value: CGFloat) -> CGFloat {
                guard flexible else { return 0 }
                return total > 0 ? delta * max(0, value) / total : delta / CGFloat(parts.count)
            }
            return (start + share(flexibleStart, start), max(0, length + share(flexibleLength, length)))
        }
        let (x, width) = axis(start: frame.minX, length: frame.width, superLength: old.width, delta: new.width - old.width,
                              flexibleStart: mask.contains(.flexibleLeftMargin), flexibleLength: mask.contains(.flexibleWidth),
                              flexibleEnd: mask.contains(.flexibleRightMargin))
        let (y, height) = axis(start: frame.minY, length: frame.height, superLength: old.height, delta: new.height - old.height,
                               flexibleStart: mask.contains(.flexibleTopMargin), flexibleLength: mask.contains(.flexibleHeight),
                               flexibleEnd: mask.contains(.flexibleBottomMargin))
        bounds = CGRect(origin: bounds.origin, size: CGSize(width: width, height: height))
        center = CGPoint(x: x + width / 2, y: y + height / 2)
    }
}
