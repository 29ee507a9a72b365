import SmokescreenStage
import XCTest

/// A stage 200 × 300 pt at @1x with a root view filling its window, for the layout tests below.
class LayoutTestCase: XCTestCase {
    var stage: Stage!
    var root: UIView!

    override func setUpWithError() throws {
        stage = try makeStage(width: 200, height: 300)
        root = UIView(frame: stage.window.bounds)
        stage.window.addSubview(root)
    }
}

/// Auto Layout in the UIKit layer: frames derived by hand from UIKit's documented rules (points, @1x, so
/// the engine's rounding to device pixels changes nothing unless a test says).
final class AutoLayoutTests: LayoutTestCase {
    private func constrained(_ view: UIView = UIView()) -> UIView {
        view.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(view)
        return view
    }

    /// A window's root view controller's view keeps the window's bounds even when it does not translate its
    /// autoresizing mask and nothing sizes it (UIKit holds it with its encapsulated-layout constraints),
    /// and its subviews are laid out inside it.
    func testAWindowsRootViewKeepsTheWindowsSizeWithoutTranslatingItsMask() throws {
        let stage = try makeStage(width: 120, height: 80)
        let controller = UIViewController()
        controller.view.translatesAutoresizingMaskIntoConstraints = false
        let inner = UIView()
        inner.translatesAutoresizingMaskIntoConstraints = false
        controller.view.addSubview(inner)
        NSLayoutConstraint.activate([
            inner.leadingAnchor.constraint(equalTo: controller.view.leadingAnchor, constant: 10),
            inner.trailingAnchor.constraint(equalTo: controller.view.trailingAnchor, constant: -10),
            inner.topAnchor.constraint(equalTo: controller.view.topAnchor, constant: 5),
            inner.bottomAnchor.constraint(equalTo: controller.view.bottomAnchor, constant: -5),
        ])
        stage.show(controller)
        XCTAssertEqual(controller.view.frame, CGRect(x: 0, y: 0, width: 120, height: 80))
        XCTAssertEqual(inner.frame, CGRect(x: 10, y: 5, width: 100, height: 70))
    }

    func testEdgesPinnedWithInsetsGiveTheFrame() {
        let card = constrained()
        NSLayoutConstraint.activate([
            card.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 16),
            card.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -16),
            card.topAnchor.constraint(equalTo: root.topAnchor, constant: 40),
            card.heightAnchor.constraint(equalTo: card.widthAnchor, multiplier: 0.5),
        ])
        root.layoutIfNeeded()
        XCTAssertEqual(card.frame, CGRect(x: 16, y: 40, width: 168, height: 84))
        XCTAssertFalse(card.hasAmbiguousLayout)
        XCTAssertEqual(root.constraints.count, 3, "installed on the common ancestor")
        XCTAssertEqual(card.constraints.count, 1, "a constraint between the card's own attributes is the card's")
    }

    func testAViewThatDoesNotTranslateItsMaskAndHasNoConstraintsIsEmptyAtTheOrigin() {
        let view = constrained(UIView(frame: CGRect(x: 50, y: 50, width: 30, height: 30)))
        root.layoutIfNeeded()
        XCTAssertEqual(view.frame, .zero)
        XCTAssertTrue(view.hasAmbiguousLayout)
    }

    func testNeighboursMoveWhenAConstantChangesAndAnimateInsideABlock() throws {
        let header = constrained(), body = constrained()
        let height = header.heightAnchor.constraint(equalToConstant: 60)
        NSLayoutConstraint.activate([
            header.topAnchor.constraint(equalTo: root.topAnchor), height,
            header.leadingAnchor.constraint(equalTo: root.leadingAnchor), header.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            body.topAnchor.constraint(equalTo: header.bottomAnchor, constant: 8),
            body.leadingAnchor.constraint(equalTo: root.leadingAnchor), body.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            body.bottomAnchor.constraint(equalTo: root.bottomAnchor),
        ])
        stage.layOut()
        XCTAssertEqual(body.frame, CGRect(x: 0, y: 68, width: 200, height: 232))
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: {
            height.constant = 160
            self.root.layoutIfNeeded()
        })
        XCTAssertEqual(body.frame, CGRect(x: 0, y: 168, width: 200, height: 132), "the model frames are the new ones at once")
        try stage.wait(0.5)
        let shown = try XCTUnwrap(body.layer.presentation()).frame
        XCTAssertEqual(shown.minY, 118, accuracy: 1e-9, "the body moves only because the header grew, and animates")
        XCTAssertEqual(shown.height, 182, accuracy: 1e-9)
    }

    func testAConstantChangedOutsideABlockSnapsAtTheNextPass() throws {
        let box = constrained()
        let left = box.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 10)
        NSLayoutConstraint.activate([left, box.topAnchor.constraint(equalTo: root.topAnchor),
                                     box.widthAnchor.constraint(equalToConstant: 20), box.heightAnchor.constraint(equalToConstant: 20)])
        stage.layOut()
        left.constant = 70
        XCTAssertEqual(box.frame.minX, 10, "not before a layout pass")
        try stage.wait(0.1)
        XCTAssertEqual(box.frame.minX, 70)
        XCTAssertEqual(box.layer.presentation()?.frame.minX, 70)
    }

    func testIntrinsicSizesHugAndResistAtTheirPriorities() {
        let name = UILabel(), value = UILabel()
        name.text = "Name"
        value.text = "A value long enough to be squeezed"
        for label in [name, value] { _ = constrained(label) }
        NSLayoutConstraint.activate([
            name.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
            value.leadingAnchor.constraint(equalTo: name.trailingAnchor, constant: 8),
            value.trailingAnchor.constraint(lessThanOrEqualTo: root.trailingAnchor, constant: -10),
            name.topAnchor.constraint(equalTo: root.topAnchor), value.topAnchor.constraint(equalTo: root.topAnchor),
        ])
        // The name keeps its text's width (it resists more); the value takes what is left.
        name.setContentCompressionResistancePriority(.required, for: .horizontal)
        root.layoutIfNeeded()
        let nameWidth = name.intrinsicContentSize.width
        XCTAssertEqual(name.frame, CGRect(x: 10, y: 0, width: nameWidth, height: name.intrinsicContentSize.height))
        XCTAssertEqual(value.frame.minX, 10 + nameWidth + 8)
        XCTAssertEqual(value.frame.maxX, 190, "squeezed to the trailing bound")
        XCTAssertLessThan(value.frame.width, value.intrinsicContentSize.width)
        // With room to spare, the value hugs its text.
        value.text = "Short"
        root.layoutIfNeeded()
        XCTAssertEqual(value.frame.width, value.intrinsicContentSize.width)
    }

    func testAWrappingLabelGetsTheHeightOfItsTextAtTheWidthItIsGiven() {
        let label = UILabel()
        label.numberOfLines = 0
        label.text = "Several words that cannot fit on one line of a narrow column"
        _ = constrained(label)
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 20),
            label.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -20),
            label.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
        ])
        root.layoutIfNeeded()
        let expected = label.sizeThatFits(CGSize(width: 160, height: 0)).height
        XCTAssertGreaterThan(expected, label.intrinsicContentSize.height * 2, "it wraps")
        XCTAssertEqual(label.frame, CGRect(x: 20, y: 10, width: 160, height: expected))
    }

    func testFirstBaselinesOfDifferentFontsLineUp() throws {
        let big = UILabel(), small = UILabel()
        big.font = .systemFont(ofSize: 30)
        big.text = "Title"
        small.text = "caption"
        for label in [big, small] { _ = constrained(label) }
        NSLayoutConstraint.activate([
            big.leadingAnchor.constraint(equalTo: root.leadingAnchor), big.topAnchor.constraint(equalTo: root.topAnchor, constant: 20),
            small.leadingAnchor.constraint(equalTo: big.trailingAnchor, constant: 8),
            small.firstBaselineAnchor.constraint(equalTo: big.firstBaselineAnchor),
        ])
        root.layoutIfNeeded()
        let bigOffsets = try XCTUnwrap(big.baselineOffsetsFromCenter()), smallOffsets = try XCTUnwrap(small.baselineOffsetsFromCenter())
        XCTAssertEqual(big.frame.midY + bigOffsets.first, small.frame.midY + smallOffsets.first, accuracy: 0.5,
                       "within the half point the engine's rounding to whole pixels allows at @1x")
        XCTAssertGreaterThan(small.frame.minY, big.frame.minY)
    }

    func testLeadingAndTrailingFollowTheLayoutDirection() {
        let box = constrained()
        NSLayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10), box.widthAnchor.constraint(equalToConstant: 50),
            box.topAnchor.constraint(equalTo: root.topAnchor), box.heightAnchor.constraint(equalToConstant: 10),
        ])
        root.layoutIfNeeded()
        XCTAssertEqual(box.frame.minX, 10)
        root.semanticContentAttribute = .forceRightToLeft
        root.layoutIfNeeded()
        XCTAssertEqual(box.frame.maxX, 190, "leading is the right edge from right to left")
    }

    func testARequiredConflictIsLoggedInUIKitsWordsAndTheLaterConstraintBroken() {
        let box = constrained()
        let first = box.widthAnchor.constraint(equalToConstant: 100)
        let second = box.widthAnchor.constraint(equalToConstant: 60)
        second.identifier = "too-narrow"
        NSLayoutConstraint.activate([first, box.heightAnchor.constraint(equalToConstant: 10), box.leftAnchor.constraint(equalTo: root.leftAnchor),
                                     box.topAnchor.constraint(equalTo: root.topAnchor)])
        root.layoutIfNeeded()
        second.isActive = true
        root.layoutIfNeeded()
        XCTAssertEqual(box.frame.width, 100)
        XCTAssertTrue(second.isActive, "a broken constraint stays active, as UIKit's")
        let log = stage.warnings.joined(separator: "\n")
        XCTAssertTrue(log.contains("Unable to simultaneously satisfy constraints."), log)
        XCTAssertTrue(log.contains("Will attempt to recover by breaking constraint"), log)
        XCTAssertTrue(log.contains("'too-narrow'"), log)
        // An optional one is met as closely as it can be instead.
        second.isActive = false
        second.priority = .defaultHigh
        second.isActive = true
        root.layoutIfNeeded()
        XCTAssertEqual(box.frame.width, 100)
        first.isActive = false
        root.layoutIfNeeded()
        XCTAssertEqual(box.frame.width, 60)
    }

    func testConstraintsWithoutACommonAncestorAreNotActivated() {
        let inside = constrained(), outside = UIView()
        let constraint = inside.widthAnchor.constraint(equalTo: outside.widthAnchor)
        constraint.isActive = true
        XCTAssertFalse(constraint.isActive)
        XCTAssertTrue(stage.warnings.contains { $0.contains("because they have no common ancestor") })
    }

    func testRemovingAViewRemovesTheConstraintsThatNameIt() {
        let a = constrained(), b = constrained()
        let between = b.leadingAnchor.constraint(equalTo: a.trailingAnchor)
        let own = a.widthAnchor.constraint(equalToConstant: 30)
        NSLayoutConstraint.activate([between, own])
        a.removeFromSuperview()
        XCTAssertFalse(between.isActive)
        XCTAssertTrue(own.isActive, "the view's own constraints go with it")
    }

    func testConstraintsDoNotKeepTheirViewsAlive() {
        weak var released: UIView?
        do {
            let view = UIView()
            view.widthAnchor.constraint(equalToConstant: 10).isActive = true
            view.heightAnchor.constraint(equalTo: view.widthAnchor).isActive = true
            released = view
            XCTAssertEqual(view.constraints.count, 2)
        }
        XCTAssertNil(released, "a view's constraints on itself are the view's, not its owners")
    }

    func testSafeAreaAndMarginGuides() throws {
        stage = try Stage(device: Device(name: "notched", size: CGSize(width: 200, height: 300), scale: 1,
                                         safeAreaInsets: UIEdgeInsets(top: 44, left: 0, bottom: 34, right: 0)), fps: 10)
        let controller = UIViewController()
        stage.window.rootViewController = controller
        stage.window.makeKeyAndVisible()
        let content = UIView(), text = UIView()
        for view in [content, text] {
            view.translatesAutoresizingMaskIntoConstraints = false
            controller.view.addSubview(view)
        }
        let safe = controller.view.safeAreaLayoutGuide, margins = controller.view.layoutMarginsGuide
        NSLayoutConstraint.activate([
            content.topAnchor.constraint(equalTo: safe.topAnchor), content.bottomAnchor.constraint(equalTo: safe.bottomAnchor),
            content.leadingAnchor.constraint(equalTo: safe.leadingAnchor), content.trailingAnchor.constraint(equalTo: safe.trailingAnchor),
            text.topAnchor.constraint(equalTo: margins.topAnchor), text.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
            text.trailingAnchor.constraint(equalTo: margins.trailingAnchor), text.heightAnchor.constraint(equalToConstant: 20),
        ])
        stage.layOut()
        XCTAssertEqual(content.frame, CGRect(x: 0, y: 44, width: 200, height: 222))
        XCTAssertEqual(text.frame, CGRect(x: 16, y: 44, width: 168, height: 20), "a controller's view: 16-pt margins inside the safe area")
        XCTAssertEqual(safe.layoutFrame, CGRect(x: 0, y: 44, width: 200, height: 222))
    }

    func testUpdateConstraintsRunsLeavesFirstOnceAndAgainWhenAsked() {
        final class Recording: UIView {
            var log: (String) -> Void = { _ in }
            var name = ""
            override func updateConstraints() {
                log(name)
                super.updateConstraints()
            }
        }
        var calls: [String] = []
        let outer = Recording(), inner = Recording()
        outer.name = "outer"; inner.name = "inner"
        for view in [outer, inner] { view.log = { calls.append($0) } }
        outer.addSubview(inner)
        outer.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(outer)
        root.layoutIfNeeded()
        XCTAssertEqual(calls, ["inner", "outer"])
        root.layoutIfNeeded()
        XCTAssertEqual(calls.count, 2, "not again until asked")
        outer.setNeedsUpdateConstraints()
        root.layoutIfNeeded()
        XCTAssertEqual(calls, ["inner", "outer", "outer"])
    }

    func testSystemLayoutSizeFittingGivesACellsHeightAtAWidth() {
        let cell = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 10))
        let title = UILabel(), body = UILabel()
        title.text = "Title"
        body.numberOfLines = 0
        body.text = "A body that wraps onto more than one line in a cell that is not very wide"
        for label in [title, body] {
            label.translatesAutoresizingMaskIntoConstraints = false
            cell.addSubview(label)
        }
        NSLayoutConstraint.activate([
            title.topAnchor.constraint(equalTo: cell.topAnchor, constant: 12),
            title.leadingAnchor.constraint(equalTo: cell.leadingAnchor, constant: 16),
            body.topAnchor.constraint(equalTo: title.bottomAnchor, constant: 4),
            body.leadingAnchor.constraint(equalTo: cell.leadingAnchor, constant: 16),
            body.trailingAnchor.constraint(equalTo: cell.trailingAnchor, constant: -16),
            body.bottomAnchor.constraint(equalTo: cell.bottomAnchor, constant: -12),
        ])
        let fitted = cell.systemLayoutSizeFitting(CGSize(width: 200, height: 0), withHorizontalFittingPriority: .required,
                                                  verticalFittingPriority: .fittingSizeLevel)
        let expected = 12 + title.intrinsicContentSize.height + 4 + body.sizeThatFits(CGSize(width: 168, height: 0)).height + 12
        XCTAssertEqual(fitted, CGSize(width: 200, height: expected))
        XCTAssertEqual(cell.frame.height, 10, "the view is not changed")
    }

    func testAnExpansionDrivenByConstraintsMatchesTheSameExpansionWithFrames() throws {
        // A card that grows to the whole screen by changing four constants inside a spring animator…
        let card = constrained()
        let top = card.topAnchor.constraint(equalTo: root.topAnchor, constant: 100)
        let leading = card.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 20)
        let trailing = root.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: 20)
        let height = card.heightAnchor.constraint(equalToConstant: 80)
        NSLayoutConstraint.activate([top, leading, trailing, height])
        // …beside the same card written with frames.
        let twin = UIView(frame: CGRect(x: 20, y: 100, width: 160, height: 80))
        root.addSubview(twin)
        stage.layOut()
        XCTAssertEqual(card.frame, twin.frame)
        let animator = UIViewPropertyAnimator(duration: 0.6, dampingRatio: 0.8) {
            top.constant = 0; leading.constant = 0; trailing.constant = 0; height.constant = 300
            self.root.layoutIfNeeded()
            twin.frame = CGRect(x: 0, y: 0, width: 200, height: 300)
        }
        animator.startAnimation()
        for _ in 0..<8 {
            try stage.wait(0.1)
            let a = try XCTUnwrap(card.layer.presentation()).frame, b = try XCTUnwrap(twin.layer.presentation()).frame
            XCTAssertEqual(a.minX, b.minX, accuracy: 1e-9); XCTAssertEqual(a.minY, b.minY, accuracy: 1e-9)
            XCTAssertEqual(a.width, b.width, accuracy: 1e-9); XCTAssertEqual(a.height, b.height, accuracy: 1e-9)
        }
        XCTAssertEqual(card.frame, CGRect(x: 0, y: 0, width: 200, height: 300))
    }
}

/// UIStackView: frames derived from UIKit's documented distribution and alignment rules.
final class StackViewTests: LayoutTestCase {
    /// A view with an intrinsic size.
    final class Block: UIView {
        var size: CGSize
        init(_ width: CGFloat, _ height: CGFloat) {
            size = CGSize(width: width, height: height)
            super.init(frame: .zero)
        }
        required init?(coder: NSCoder) { nil }
        override var intrinsicContentSize: CGSize { size }
    }

    private func pin(_ stack: UIStackView, width: CGFloat? = nil) {
        stack.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(stack)
        var constraints = [stack.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
                           stack.topAnchor.constraint(equalTo: root.topAnchor, constant: 20)]
        if let width { constraints.append(stack.widthAnchor.constraint(equalToConstant: width)) }
        NSLayoutConstraint.activate(constraints)
    }

    func testAVerticalFormStacksFieldsWithSpacingAndFillsTheWidth() {
        // A login form: two fields and a button, 12 pt apart, 180 pt wide.
        let name = Block(100, 30), password = Block(100, 30), button = Block(60, 44)
        let form = UIStackView(arrangedSubviews: [name, password, button])
        form.axis = .vertical
        form.spacing = 12
        pin(form, width: 180)
        root.layoutIfNeeded()
        XCTAssertEqual(name.frame, CGRect(x: 0, y: 0, width: 180, height: 30))
        XCTAssertEqual(password.frame, CGRect(x: 0, y: 42, width: 180, height: 30))
        XCTAssertEqual(button.frame, CGRect(x: 0, y: 84, width: 180, height: 44))
        XCTAssertEqual(form.frame, CGRect(x: 10, y: 20, width: 180, height: 128), "the stack's height is its views' and spacing")
        form.setCustomSpacing(24, after: password)
        root.layoutIfNeeded()
        XCTAssertEqual(button.frame.minY, 96)
    }

    func testDistributions() {
        let a = Block(20, 10), b = Block(40, 10), c = Block(20, 10)
        let row = UIStackView(arrangedSubviews: [a, b, c])
        row.spacing = 10
        pin(row, width: 180)
        row.distribution = .fillEqually
        root.layoutIfNeeded()
        for view in [a, b, c] {
            XCTAssertEqual(view.frame.width, 160 / 3, accuracy: 1, "equal within the engine's rounding of each edge to whole pixels at @1x")
        }
        XCTAssertEqual(c.frame.maxX, 180)
        row.distribution = .fillProportionally
        root.layoutIfNeeded()
        XCTAssertEqual(a.frame.width, 40); XCTAssertEqual(b.frame.width, 80); XCTAssertEqual(c.frame.width, 40)
        row.distribution = .equalSpacing
        root.layoutIfNeeded()
        XCTAssertEqual(a.frame, CGRect(x: 0, y: 0, width: 20, height: 10))
        XCTAssertEqual(b.frame.minX, 70, "(180 - 80) / 2 between each pair")
        XCTAssertEqual(c.frame.minX, 160)
        row.distribution = .equalCentering
        root.layoutIfNeeded()
        XCTAssertEqual(b.frame.midX - a.frame.midX, c.frame.midX - b.frame.midX, accuracy: 1)
        XCTAssertEqual(c.frame.maxX, 180)
    }

    func testAlignments() {
        let short = Block(20, 10), tall = Block(20, 40)
        let row = UIStackView(arrangedSubviews: [short, tall])
        pin(row)
        let expectations: [(UIStackView.Alignment, CGFloat)] = [(.top, 0), (.center, 15), (.bottom, 30)]
        for (alignment, y) in expectations {
            row.alignment = alignment
            root.layoutIfNeeded()
            XCTAssertEqual(short.frame.minY, y, "\(alignment)")
            XCTAssertEqual(row.frame.height, 40, "the stack hugs its tallest view (\(alignment))")
        }
        row.alignment = .fill
        root.layoutIfNeeded()
        XCTAssertEqual(short.frame.height, 40)
    }

    func testHidingAnArrangedViewCollapsesItAndAnimatesInABlock() throws {
        let first = Block(100, 30), middle = Block(100, 30), last = Block(100, 30)
        let column = UIStackView(arrangedSubviews: [first, middle, last])
        column.axis = .vertical
        column.spacing = 10
        pin(column, width: 100)
        stage.layOut()
        XCTAssertEqual(last.frame.minY, 80)
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: {
            middle.isHidden = true
            column.layoutIfNeeded()
        })
        XCTAssertTrue(middle.isHidden)
        XCTAssertEqual(last.frame.minY, 40, "the hidden view and its spacing collapse")
        XCTAssertEqual(middle.frame.height, 0)
        try stage.wait(0.5)
        XCTAssertEqual(try XCTUnwrap(last.layer.presentation()).frame.minY, 60, accuracy: 1e-9)
        XCTAssertFalse(middle.layer.isHidden, "drawn while it collapses")
        try stage.wait(0.6)
        XCTAssertTrue(middle.layer.isHidden, "hidden when the block ends")
        middle.isHidden = false
        root.layoutIfNeeded()
        XCTAssertEqual(last.frame.minY, 80)
    }

    func testBaselineAlignmentLinesUpLabelsOfDifferentSizes() throws {
        let big = UILabel(), small = UILabel()
        big.font = .systemFont(ofSize: 28)
        big.text = "42"
        small.text = "points"
        let row = UIStackView(arrangedSubviews: [big, small])
        row.alignment = .firstBaseline
        row.spacing = 4
        pin(row)
        root.layoutIfNeeded()
        let b = try XCTUnwrap(big.baselineOffsetsFromCenter()), s = try XCTUnwrap(small.baselineOffsetsFromCenter())
        XCTAssertEqual(big.frame.midY + b.first, small.frame.midY + s.first, accuracy: 0.5)
        XCTAssertEqual(small.frame.minX, big.frame.maxX + 4)
        XCTAssertEqual(row.frame.height, big.frame.height, "the taller label sets the height")
    }
}

/// The visual format language, against Apple's grammar and its documented examples.
final class VisualFormatTests: XCTestCase {
    func testAFormLaidOutInTheVisualFormatLanguage() throws {
        let stage = try makeStage(width: 200, height: 300)
        let root = UIView(frame: stage.window.bounds)
        stage.window.addSubview(root)
        let label = UIView(), field = UIView(), button = UIView()
        for view in [label, field, button] {
            view.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(view)
        }
        let views = ["label": label, "field": field, "button": button]
        let metrics = ["gap": 12.0]
        NSLayoutConstraint.activate(
            NSLayoutConstraint.constraints(withVisualFormat: "H:|-[label(40)]-gap-[field(>=50@750)]-|", options: [.alignAllTop, .alignAllBottom], metrics: metrics, views: views)
            + NSLayoutConstraint.constraints(withVisualFormat: "V:|-30-[label(24)]-10-[button(==label)]", metrics: nil, views: views)
            + NSLayoutConstraint.constraints(withVisualFormat: "H:[button(field)]|", metrics: nil, views: views))
        root.layoutIfNeeded()
        XCTAssertEqual(label.frame, CGRect(x: 20, y: 30, width: 40, height: 24), "a bare '-' to the superview is 20 pt")
        XCTAssertEqual(field.frame, CGRect(x: 72, y: 30, width: 108, height: 24), "aligned top and bottom with the label")
        XCTAssertEqual(button.frame, CGRect(x: 92, y: 64, width: 108, height: 24))
    }

    func testAStringThatDoesNotParseIsLoggedAndMakesNothing() throws {
        let stage = try makeStage()
        let view = UIView()
        stage.window.addSubview(view)
        for format in ["H:|-[missing]-|", "H:|-[view(", "X:|[view]|", "H:|-(>=)-[view]", "V:[view]-unknownMetric-|", "", "-[view]", "[view]--[view]",
                       "H:|-" + String(repeating: "9", count: 400) + "-[view]"] {
            XCTAssertEqual(NSLayoutConstraint.constraints(withVisualFormat: format, metrics: nil, views: ["view": view]).count, 0, format)
        }
        XCTAssertEqual(NSLayoutConstraint.constraints(withVisualFormat: "H:[view]-gap-|", metrics: ["gap": "wide"], views: ["view": view]).count, 0)
        let log = stage.warnings.joined(separator: "\n")
        XCTAssertTrue(log.contains("Unable to parse constraint format"), log)
        XCTAssertTrue(log.contains("missing is not a key in the views dictionary."), log)
        XCTAssertTrue(log.contains("the metric gap is a String, not a number"), log)
    }

    func testViewsFlushWithTheSuperview() throws {
        let stage = try makeStage(width: 100, height: 50)
        let view = UIView()
        view.translatesAutoresizingMaskIntoConstraints = false
        stage.window.addSubview(view)
        let horizontal = NSLayoutConstraint.constraints(withVisualFormat: "|[view]|", metrics: nil, views: ["view": view])
        let vertical = NSLayoutConstraint.constraints(withVisualFormat: "V:|[view(20)]", metrics: nil, views: ["view": view])
        XCTAssertEqual(horizontal.count, 2)
        XCTAssertEqual(vertical.count, 2)
        NSLayoutConstraint.activate(horizontal + vertical)
        stage.layOut()
        XCTAssertEqual(view.frame, CGRect(x: 0, y: 0, width: 100, height: 20))
    }
}

/// Auto Layout in a scroll view: content constraints decide the content size; the frame guide stays put.
final class ScrollViewLayoutTests: XCTestCase {
    func testASelfSizingListOfMessagesSetsTheContentSize() throws {
        let stage = try makeStage(width: 200, height: 300)
        for legacyEdges in [false, true] {
            let scroll = UIScrollView(frame: stage.window.bounds)
            stage.window.addSubview(scroll)
            let messages = (0..<6).map { index -> UILabel in
                let label = UILabel()
                label.numberOfLines = 0
                label.text = String(repeating: "message \(index) ", count: index + 1)
                return label
            }
            let list = UIStackView(arrangedSubviews: messages)
            list.axis = .vertical
            list.spacing = 10
            list.translatesAutoresizingMaskIntoConstraints = false
            scroll.addSubview(list)
            let content: (top: NSLayoutYAxisAnchor, bottom: NSLayoutYAxisAnchor, leading: NSLayoutXAxisAnchor, trailing: NSLayoutXAxisAnchor) = legacyEdges
                ? (scroll.topAnchor, scroll.bottomAnchor, scroll.leadingAnchor, scroll.trailingAnchor)
                : (scroll.contentLayoutGuide.topAnchor, scroll.contentLayoutGuide.bottomAnchor, scroll.contentLayoutGuide.leadingAnchor, scroll.contentLayoutGuide.trailingAnchor)
            NSLayoutConstraint.activate([
                list.topAnchor.constraint(equalTo: content.top, constant: 16), list.bottomAnchor.constraint(equalTo: content.bottom, constant: -16),
                list.leadingAnchor.constraint(equalTo: content.leading, constant: 16), list.trailingAnchor.constraint(equalTo: content.trailing, constant: -16),
                list.widthAnchor.constraint(equalTo: legacyEdges ? scroll.widthAnchor : scroll.frameLayoutGuide.widthAnchor, constant: -32),
            ])
            scroll.layoutIfNeeded()
            let heights = messages.map { $0.sizeThatFits(CGSize(width: 168, height: 0)).height }
            XCTAssertEqual(messages.map(\.frame.height), heights, "legacy edges: \(legacyEdges)")
            XCTAssertEqual(messages.last!.frame.maxY, heights.reduce(0, +) + 50)
            XCTAssertEqual(scroll.contentSize, CGSize(width: 200, height: heights.reduce(0, +) + 50 + 32), "legacy edges: \(legacyEdges)")
            XCTAssertGreaterThan(scroll.contentSize.height, 300, "it scrolls")
            scroll.removeFromSuperview()
        }
    }

    func testAViewPinnedToTheFrameGuideStaysPutWhileTheContentScrolls() throws {
        let stage = try makeStage(width: 200, height: 300)
        let scroll = UIScrollView(frame: stage.window.bounds)
        scroll.contentSize = CGSize(width: 200, height: 1000)
        stage.window.addSubview(scroll)
        let button = UIView()
        button.translatesAutoresizingMaskIntoConstraints = false
        scroll.addSubview(button)
        NSLayoutConstraint.activate([
            button.bottomAnchor.constraint(equalTo: scroll.frameLayoutGuide.bottomAnchor, constant: -20),
            button.trailingAnchor.constraint(equalTo: scroll.frameLayoutGuide.trailingAnchor, constant: -20),
            button.widthAnchor.constraint(equalToConstant: 40), button.heightAnchor.constraint(equalToConstant: 40),
        ])
        stage.layOut()
        XCTAssertEqual(button.frame, CGRect(x: 140, y: 240, width: 40, height: 40))
        scroll.contentOffset = CGPoint(x: 0, y: 150)
        stage.layOut()
        XCTAssertEqual(button.frame, CGRect(x: 140, y: 390, width: 40, height: 40), "in content coordinates: on screen it has not moved")
        XCTAssertEqual(button.convert(button.bounds, to: stage.window).minY, 240)
    }
}

/// Test screens at several widths: frames derived from the rules (text heights from the labels' own
/// wrapping, which the typesetting tests check).
final class AutoLayoutScreenTests: XCTestCase {
    /// A profile header: a 60-pt avatar, and beside it a wrapping name above a wrapping bio; the header
    /// is as tall as the taller of the two columns, plus 16 pt.
    func testAProfileHeaderWithWrappingLabelsAtThreeWidths() {
        for width: CGFloat in [320, 375, 414] {
            let header = UIView(frame: CGRect(x: 0, y: 0, width: width, height: 10))
            let avatar = UIView(), name = UILabel(), bio = UILabel()
            name.font = .systemFont(ofSize: 20, weight: .bold)
            name.numberOfLines = 0
            name.text = "Alexandra Konstantinopoulou-Whitfield"
            bio.font = .systemFont(ofSize: 13)
            bio.numberOfLines = 0
            bio.text = "Writes about layout engines, springs and the small details of interfaces that move."
            for view in [avatar, name, bio] {
                view.translatesAutoresizingMaskIntoConstraints = false
                header.addSubview(view)
            }
            NSLayoutConstraint.activate([
                avatar.leadingAnchor.constraint(equalTo: header.leadingAnchor, constant: 16),
                avatar.topAnchor.constraint(equalTo: header.topAnchor, constant: 16),
                avatar.widthAnchor.constraint(equalToConstant: 60), avatar.heightAnchor.constraint(equalToConstant: 60),
                name.leadingAnchor.constraint(equalTo: avatar.trailingAnchor, constant: 12),
                name.trailingAnchor.constraint(equalTo: header.trailingAnchor, constant: -16),
                name.topAnchor.constraint(equalTo: header.topAnchor, constant: 16),
                bio.leadingAnchor.constraint(equalTo: name.leadingAnchor), bio.trailingAnchor.constraint(equalTo: name.trailingAnchor),
                bio.topAnchor.constraint(equalTo: name.bottomAnchor, constant: 4),
                header.bottomAnchor.constraint(greaterThanOrEqualTo: avatar.bottomAnchor, constant: 16),
                header.bottomAnchor.constraint(greaterThanOrEqualTo: bio.bottomAnchor, constant: 16),
            ])
            let column = width - 16 - 60 - 12 - 16
            let nameHeight = name.sizeThatFits(CGSize(width: column, height: 0)).height
            let bioHeight = bio.sizeThatFits(CGSize(width: column, height: 0)).height
            let fitted = header.systemLayoutSizeFitting(CGSize(width: width, height: 0), withHorizontalFittingPriority: .required,
                                                        verticalFittingPriority: .fittingSizeLevel)
            XCTAssertEqual(fitted, CGSize(width: width, height: max(16 + 60, 16 + nameHeight + 4 + bioHeight) + 16), "width \(width)")
            header.frame.size = fitted
            header.layoutIfNeeded()
            XCTAssertEqual(name.frame, CGRect(x: 88, y: 16, width: column, height: nameHeight), "width \(width)")
            XCTAssertEqual(bio.frame, CGRect(x: 88, y: 16 + nameHeight + 4, width: column, height: bioHeight), "width \(width)")
            XCTAssertFalse(header.subviews.contains { $0.hasAmbiguousLayout }, "width \(width)")
        }
    }
}

/// Dynamic Type: text styles at Apple's published sizes for each text size, and a layout that follows.
final class DynamicTypeTests: XCTestCase {
    /// The text size is the stage's, and the stage's traits are global: the next tests get Large again.
    override func tearDownWithError() throws { _ = try Stage(device: testDevice(), fps: 10) }

    func testTextStylesTakeApplesSizesAtEachTextSize() throws {
        let expectations: [(UIContentSizeCategory, CGFloat, CGFloat)] = [
            (.extraSmall, 14, 11), (.large, 17, 12), (.extraExtraExtraLarge, 23, 18), (.accessibilityMedium, 28, 22),
            (.accessibilityExtraExtraExtraLarge, 53, 43),
        ]
        for (category, body, caption) in expectations {
            _ = try Stage(device: testDevice(), fps: 10, contentSizeCategory: category)
            XCTAssertEqual(UIFont.preferredFont(forTextStyle: .body).pointSize, body, "\(category.rawValue)")
            XCTAssertEqual(UIFont.preferredFont(forTextStyle: .caption1).pointSize, caption, "\(category.rawValue)")
            XCTAssertEqual(UIFontMetrics.default.scaledValue(for: 17), body, "\(category.rawValue)")
        }
        let traits = UITraitCollection(preferredContentSizeCategory: .extraLarge)
        XCTAssertEqual(UIFont.preferredFont(forTextStyle: .headline, compatibleWith: traits).pointSize, 19)
        XCTAssertTrue(UIContentSizeCategory.accessibilityLarge.isAccessibilityCategory)
        XCTAssertLessThan(UIContentSizeCategory.small, .extraLarge)
    }

    /// The profile header's label rows grow with the text size; the layout follows, at each size the
    /// heights its text takes.
    func testAFormLaidOutByConstraintsGrowsWithTheTextSize() throws {
        var heights: [CGFloat] = []
        for category in [UIContentSizeCategory.extraSmall, .large, .accessibilityExtraLarge] {
            let stage = try Stage(device: testDevice(width: 320, height: 600), fps: 10, contentSizeCategory: category)
            let title = UILabel(), body = UILabel()
            title.font = .preferredFont(forTextStyle: .headline)
            title.text = "Delivery address"
            body.font = .preferredFont(forTextStyle: .body)
            body.numberOfLines = 0
            body.text = "Leave the parcel with the neighbour at number 12 if nobody answers the door."
            let form = UIStackView(arrangedSubviews: [title, body])
            form.axis = .vertical
            form.spacing = 6
            form.translatesAutoresizingMaskIntoConstraints = false
            stage.window.addSubview(form)
            NSLayoutConstraint.activate([
                form.leadingAnchor.constraint(equalTo: stage.window.leadingAnchor, constant: 20),
                form.trailingAnchor.constraint(equalTo: stage.window.trailingAnchor, constant: -20),
                form.topAnchor.constraint(equalTo: stage.window.topAnchor, constant: 20),
            ])
            stage.layOut()
            let titleHeight = title.sizeThatFits(CGSize(width: 280, height: 0)).height
            let bodyHeight = body.sizeThatFits(CGSize(width: 280, height: 0)).height
            XCTAssertEqual(body.frame, CGRect(x: 0, y: titleHeight + 6, width: 280, height: bodyHeight), "\(category.rawValue)")
            XCTAssertEqual(form.frame.height, titleHeight + 6 + bodyHeight, "\(category.rawValue)")
            heights.append(form.frame.height)
        }
        XCTAssertEqual(heights, heights.sorted(), "taller at each larger text size")
        XCTAssertGreaterThan(heights[2], heights[0] * 2)
    }
}

final class StageAmbiguityTests: XCTestCase {
    func testTheStageListsViewsWhoseLayoutIsAmbiguous() throws {
        let stage = try makeStage(width: 200, height: 300)
        let fixed = UIView(), loose = UIView()
        for view in [fixed, loose] {
            view.translatesAutoresizingMaskIntoConstraints = false
            stage.window.addSubview(view)
        }
        NSLayoutConstraint.activate([
            fixed.leadingAnchor.constraint(equalTo: stage.window.leadingAnchor), fixed.topAnchor.constraint(equalTo: stage.window.topAnchor),
            fixed.widthAnchor.constraint(equalToConstant: 10), fixed.heightAnchor.constraint(equalToConstant: 10),
            loose.topAnchor.constraint(equalTo: fixed.bottomAnchor), loose.heightAnchor.constraint(equalToConstant: 10),
            loose.widthAnchor.constraint(greaterThanOrEqualToConstant: 20),
        ])
        XCTAssertEqual(stage.ambiguousLayouts.count, 1)
        XCTAssertTrue(stage.ambiguousLayouts[0].hasSuffix("is ambiguous horizontally"), stage.ambiguousLayouts[0])
        loose.leadingAnchor.constraint(equalTo: fixed.leadingAnchor).isActive = true
        loose.widthAnchor.constraint(equalToConstant: 20).isActive = true
        XCTAssertEqual(stage.ambiguousLayouts, [])
    }
}

/// What a hostile review tried: passes re-entered from user code, a stack view given itself, exercising
/// ambiguity again and again, numbers Auto Layout cannot use.
final class AutoLayoutReentryTests: XCTestCase {
    final class Reentering: UIView {
        var calls = 0
        var mode = 0
        override func layoutSubviews() {
            calls += 1
            super.layoutSubviews()
            if mode == 1 { setNeedsLayout(); layoutIfNeeded() }
            if mode == 2 { superview?.setNeedsLayout(); superview?.layoutIfNeeded() }
        }
        override func updateConstraints() {
            calls += 1
            super.updateConstraints()
            if mode == 3 { setNeedsUpdateConstraints(); layoutIfNeeded() }
            if mode == 4 { setNeedsUpdateConstraints(); updateConstraintsIfNeeded() }
        }
    }

    func testPassesReenteredFromUserCodeWaitForTheNextPass() throws {
        for mode in 1...4 {
            let stage = try makeStage(width: 100, height: 100)
            let view = Reentering()
            view.mode = mode
            view.translatesAutoresizingMaskIntoConstraints = false
            stage.window.addSubview(view)
            NSLayoutConstraint.activate([view.leadingAnchor.constraint(equalTo: stage.window.leadingAnchor, constant: 5),
                                         view.topAnchor.constraint(equalTo: stage.window.topAnchor),
                                         view.widthAnchor.constraint(equalToConstant: 10), view.heightAnchor.constraint(equalToConstant: 10)])
            stage.layOut()
            try stage.wait(0.2)
            XCTAssertEqual(view.frame, CGRect(x: 5, y: 0, width: 10, height: 10), "mode \(mode)")
            XCTAssertLessThan(view.calls, 20, "once a pass, not recursively (mode \(mode))")
        }
    }

    func testAStackViewRefusesItselfAndItsAncestors() throws {
        let stage = try makeStage()
        let root = UIView(frame: stage.window.bounds)
        stage.window.addSubview(root)
        let stack = UIStackView()
        root.addSubview(stack)
        stack.addArrangedSubview(stack)
        stack.addArrangedSubview(root)
        XCTAssertEqual(stack.arrangedSubviews.count, 0)
        XCTAssertTrue(root.translatesAutoresizingMaskIntoConstraints, "left as it was")
        XCTAssertEqual(stage.warnings.filter { $0.contains("cannot arrange") }.count, 2, "\(stage.warnings)")
    }

    func testExercisingAmbiguityMovesTheViewAndLeavesItAmbiguous() throws {
        let stage = try makeStage(width: 200, height: 200)
        let view = UIView()
        view.translatesAutoresizingMaskIntoConstraints = false
        stage.window.addSubview(view)
        view.widthAnchor.constraint(equalToConstant: 10).isActive = true
        stage.layOut()
        var positions = Set<CGFloat>()
        for _ in 0..<4 {
            view.exerciseAmbiguityInLayout()
            positions.insert(view.frame.minX)
            XCTAssertTrue(view.hasAmbiguousLayout)
        }
        XCTAssertGreaterThan(positions.count, 1, "it moves between layouts")
        XCTAssertEqual(view.frame.width, 10)
    }

    func testNumbersTheEngineCannotUseAreLoggedNotReportedAsConflicts() throws {
        let stage = try makeStage()
        let view = UIView()
        view.translatesAutoresizingMaskIntoConstraints = false
        stage.window.addSubview(view)
        let huge = view.widthAnchor.constraint(equalToConstant: 2e9)
        let steep = view.heightAnchor.constraint(equalTo: view.widthAnchor, multiplier: 5e6)
        NSLayoutConstraint.activate([huge, steep])
        stage.layOut()
        let log = stage.warnings.joined(separator: "\n")
        XCTAssertFalse(log.contains("Unable to simultaneously satisfy"), log)
        XCTAssertEqual(stage.warnings.filter { $0.contains("multipliers of 0.1 … 10") }.count, 2, log)
        huge.constant = .nan
        XCTAssertEqual(huge.constant, 2e9)
        XCTAssertTrue(stage.warnings.contains { $0.contains("is not a number of points") })
    }
}
