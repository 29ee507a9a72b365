extension NSLayoutConstraint {
    /// The constraints a visual-format string describes (`"H:|-[label]-8-[field(>=120)]-|"`), Apple's
    /// grammar: an optional `H:`/`V:`, `|` for the superview, views in brackets with width or height
    /// predicates, connections `-`, `-n-`, `-(>=n@priority)-` or none; `metrics` name numbers, `views`
    /// name the views. A bare `-` is the standard spacing: 8 pt between views, 20 pt to the superview.
    ///
    /// A string that does not parse is logged with UIKit's message and yields no constraints (UIKit raises).
    public class func constraints(withVisualFormat format: String, options opts: FormatOptions = [],
                                metrics: [String: Any]?, views: [String: Any]) -> [NSLayoutConstraint] {
        var parser = VisualFormatParser(format: format, metrics: metrics ?? [:], views: views, options: opts)
        do {
            return try parser.parse()
        } catch {
            UIKitLog.warn("Unable to parse constraint format: \n\(error.message)\n\(format)\n\(String(repeating: " ", count: error.offset))^")
            return []
        }
    }
}

struct VisualFormatError: Error {
    let message: String
    let offset: Int
}

/// Apple's visual format language, parsed in one pass into constraints.
struct VisualFormatParser {
    let characters: [Character]
    let metrics: [String: Any]
    let views: [String: Any]
    let options: NSLayoutConstraint.FormatOptions
    var at = 0

    init(format: String, metrics: [String: Any], views: [String: Any], options: NSLayoutConstraint.FormatOptions) {
        characters = Array(format)
        self.metrics = metrics
        self.views = views
        self.options = options
    }

    /// A predicate: `(relation) (constant | view) (@priority)`.
    struct Predicate {
        var relation = NSLayoutConstraint.Relation.equal
        var constant: CGFloat = 0
        var view: UIView?
        var priority = UILayoutPriority.required
    }

    enum Element {
        case superview
        case view(UIView, [Predicate])
        /// Spacing between neighbours: nil is the standard spacing.
        case connection([Predicate]?)
    }

    private func fail(_ message: String) -> VisualFormatError { VisualFormatError(message: message, offset: at) }
    private var current: Character? { at < characters.count ? characters[at] : nil }

    private mutating func accept(_ c: Character) -> Bool {
        guard current == c else { return false }
        at += 1
        return true
    }

    private mutating func expect(_ c: Character) throws(VisualFormatError) {
        guard accept(c) else { throw fail("Expected '\(c)'") }
    }

    private mutating func name() -> String? {
        let start = at
        while let c = current, c.isLetter || c == "_" || (at > start && c.isNumber), c.isASCII { at += 1 }
        return at > start ? String(characters[start..<at]) : nil
    }

    private mutating func number() -> CGFloat? {
        let start = at
        if current == "-" || current == "+" { at += 1 }
        while let c = current, c.isNumber || c == "." { at += 1 }
        guard at > start, let value = Double(String(characters[start..<at])), value.isFinite else { at = start; return nil }
        return CGFloat(value)
    }

    /// A number or a metric's value.
    private mutating func constant() throws(VisualFormatError) -> CGFloat {
        if let value = number() { return value }
        guard let key = name() else { throw fail("Expected a number or a metric name") }
        let value: CGFloat
        switch metrics[key] {
        case nil: throw fail("\(key) is not a key in the metrics dictionary.")
        case let number as CGFloat: value = number
        case let number as Double: value = CGFloat(number)
        case let number as Int: value = CGFloat(number)
        case let number as Float: value = CGFloat(number)
        case let other?: throw fail("the metric \(key) is a \(type(of: other)), not a number")
        }
        guard value.isFinite else { throw fail("the metric \(key) is not a finite number") }
        return value
    }

    private mutating func predicate() throws(VisualFormatError) -> Predicate {
        var p = Predicate()
        if accept("=") { try expect("="); p.relation = .equal }
        else if accept("<") { try expect("="); p.relation = .lessThanOrEqual }
        else if accept(">") { try expect("="); p.relation = .greaterThanOrEqual }
        let start = at
        if let key = name() {
            if let view = views[key] as? UIView { p.view = view } else { at = start; p.constant = try constant() }
        } else {
            p.constant = try constant()
        }
        if accept("@") { p.priority = UILayoutPriority(Float(try constant())) }
        return p
    }

    private mutating func predicateList() throws(VisualFormatError) -> [Predicate] {
        if accept("(") {
            var list = [try predicate()]
            while accept(",") { list.append(try predicate()) }
            try expect(")")
            return list
        }
        return [Predicate(constant: try constant())]
    }

    mutating func parse() throws(VisualFormatError) -> [NSLayoutConstraint] {
        var vertical = false
        if characters.count >= 2, characters[1] == ":" {
            guard characters[0] == "H" || characters[0] == "V" else { throw fail("Expected 'H' or 'V' before ':'") }
            vertical = characters[0] == "V"
            at = 2
        }
        var elements: [Element] = []
        if accept("|") { elements.append(.superview) }
        while at < characters.count {
            // A connection, then a view or the closing superview.
            if accept("-") {
                guard !elements.isEmpty else { throw fail("A connection must follow a view or '|'") }
                if current == "[" || current == "|" {
                    elements.append(.connection(nil))
                } else {
                    let list = try predicateList()
                    try expect("-")
                    elements.append(.connection(list))
                }
            } else if !elements.isEmpty {
                // Views (or a view and the superview's edge) written side by side are flush.
                if case .connection = elements.last { throw fail("Expected a view") }
                elements.append(.connection([Predicate()]))
            }
            if accept("|") {
                elements.append(.superview)
                guard at == characters.count else { throw fail("Expected the end after the superview") }
                break
            }
            try expect("[")
            guard let key = name() else { throw fail("Expected a view name") }
            guard let view = views[key] as? UIView else { throw fail("\(key) is not a key in the views dictionary.") }
            var sizes: [Predicate] = []
            if current == "(" { sizes = try predicateList() }
            try expect("]")
            elements.append(.view(view, sizes))
        }
        return try build(elements, vertical: vertical)
    }

    private func build(_ elements: [Element], vertical: Bool) throws(VisualFormatError) -> [NSLayoutConstraint] {
        let leftToRight = options.contains(.directionLeftToRight), rightToLeft = options.contains(.directionRightToLeft)
        let (start, end): (NSLayoutConstraint.Attribute, NSLayoutConstraint.Attribute) =
            vertical ? (.top, .bottom) : leftToRight ? (.left, .right) : rightToLeft ? (.right, .left) : (.leading, .trailing)
        let length: NSLayoutConstraint.Attribute = vertical ? .height : .width
        var constraints: [NSLayoutConstraint] = []
        func make(_ a: UIView, _ aa: NSLayoutConstraint.Attribute, _ p: Predicate, _ b: UIView?, _ ba: NSLayoutConstraint.Attribute,
                  constant: CGFloat) {
            let c = NSLayoutConstraint(item: a, attribute: aa, relatedBy: p.relation, toItem: b, attribute: b == nil ? .notAnAttribute : ba,
                                       multiplier: 1, constant: constant)
            c.priority = p.priority
            constraints.append(c)
        }
        let viewList = elements.compactMap { if case let .view(v, _) = $0 { v } else { nil } }
        guard !viewList.isEmpty else { throw fail("A format string needs at least one view") }
        for case let .view(view, sizes) in elements {
            for p in sizes {
                if let other = p.view { make(view, length, p, other, length, constant: 0) } else { make(view, length, p, nil, .notAnAttribute, constant: p.constant) }
            }
        }
        // Each connection relates the elements either side of it.
        for index in elements.indices {
            guard case let .connection(predicates) = elements[index], index > 0, index + 1 < elements.count else { continue }
            let before = elements[index - 1], after = elements[index + 1]
            let toSuperview: Bool
            switch (before, after) { case (.superview, _), (_, .superview): toSuperview = true; default: toSuperview = false }
            let list = predicates ?? [Predicate(constant: toSuperview ? 20 : UIView.systemSpacing)]
            for p in list {
                switch (before, after) {
                case let (.superview, .view(view, _)):
                    guard let parent = view.superview else { throw fail("Unable to interpret '|' character, because the related view doesn't have a superview") }
                    make(view, start, p, parent, start, constant: p.constant)
                case let (.view(view, _), .superview):
                    guard let parent = view.superview else { throw fail("Unable to interpret '|' character, because the related view doesn't have a superview") }
                    make(parent, end, p, view, end, constant: p.constant)
                case let (.view(a, _), .view(b, _)):
                    make(b, start, p, a, end, constant: p.constant)
                default: break
                }
            }
        }
        // The alignment options line up neighbouring views across the axis.
        let alignments: [(NSLayoutConstraint.FormatOptions, NSLayoutConstraint.Attribute)] = [
            (.alignAllLeft, .left), (.alignAllRight, .right), (.alignAllTop, .top), (.alignAllBottom, .bottom),
            (.alignAllLeading, .leading), (.alignAllTrailing, .trailing), (.alignAllCenterX, .centerX), (.alignAllCenterY, .centerY),
            (.alignAllLastBaseline, .lastBaseline), (.alignAllFirstBaseline, .firstBaseline),
        ]
        for (option, attribute) in alignments where options.contains(option) {
            guard attribute.isVertical != vertical else {
                let axis = vertical ? "vertical" : "horizontal"
                throw fail("Options mask required views to be aligned on a \(axis) edge, which is not allowed for layout that is also \(axis).")
            }
            for (a, b) in zip(viewList, viewList.dropFirst()) { make(b, attribute, Predicate(), a, attribute, constant: 0) }
        }
        return constraints
    }
}
