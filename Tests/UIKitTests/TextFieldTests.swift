import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// `UITextField`: drawn as iOS 17 draws a field, edited by a script as a keyboard would, its delegate
/// asked and its events sent.
final class TextFieldTests: XCTestCase {
    final class Delegate: UITextFieldDelegate {
        var calls: [String] = []
        var refuseDigits = false
        func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool { calls.append("should begin"); return true }
        func textFieldDidBeginEditing(_ textField: UITextField) { calls.append("did begin") }
        func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String) -> Bool {
            calls.append("change \(range.location),\(range.length) \"\(string)\"")
            return !(refuseDigits && string.contains { $0.isNumber })
        }
        func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason) { calls.append("did end") }
        func textFieldShouldReturn(_ textField: UITextField) -> Bool { calls.append("return"); return true }
    }

    final class Events: NSObject {
        var names: [String] = []
        func began() { names.append("began") }
        func changed() { names.append("changed") }
        func ended() { names.append("ended") }
    }

    /// AccessibilitySnapshot's field on iOS 17.5 (a plain `UITextField` with "Hello world", centred at its
    /// own size in 120 × 44 points): the system font at 17 points (a 12-point cap height), the text left
    /// in the field and centred vertically, its baseline 28 points down.
    func testAPlainFieldIsDrawnAsIOSDrawsIt() throws {
        let field = UITextField()
        field.text = "Hello world"
        XCTAssertEqual(field.font?.pointSize, 17)
        let size = field.sizeThatFits(.zero)
        field.frame = CGRect(x: (120 - size.width) / 2, y: (44 - size.height) / 2, width: size.width, height: size.height)
        let screen = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 44))
        screen.backgroundColor = .white
        screen.addSubview(field)
        let b = try ViewImageConfig.draw(screen, size: nil, traits: UITraitCollection(displayScale: 3))
        try IOSParityTests.keep(b, name: "text-field@3x.png")
        let ink = (0..<b.height).flatMap { y in (0..<b.width).filter { IOSParityTests.onWhite(b, $0, y)[1] < 128 }.map { ($0, y) } }
        let minX = try XCTUnwrap(ink.map(\.0).min()), maxX = try XCTUnwrap(ink.map(\.0).max()), maxY = try XCTUnwrap(ink.map(\.1).max())
        XCTAssertEqual(Double(minX + maxX) / 2, 179, accuracy: 6, "centred as iOS's (56…302 px)")
        XCTAssertEqual(maxY, 84, accuracy: 2, "the baseline 28 points down")
        let h = (0..<b.height).filter { IOSParityTests.onWhite(b, minX + 2, $0)[1] < 128 }
        XCTAssertEqual(h.count, 36, accuracy: 2, "the H 12 points high")
    }

    func testAScriptTypesAsAKeyboardWould() throws {
        let stage = try makeStage(width: 200, height: 60)
        let field = UITextField(frame: CGRect(x: 10, y: 10, width: 180, height: 34))
        field.borderStyle = .roundedRect
        let delegate = Delegate()
        field.delegate = delegate
        let events = Events()
        field.addTarget(events, action: Selector(Events.began), for: .editingDidBegin)
        field.addTarget(events, action: Selector(Events.changed), for: .editingChanged)
        field.addTarget(events, action: Selector(Events.ended), for: .editingDidEnd)
        final class Count: @unchecked Sendable { var value = 0 }
        let notified = Count()
        let observer = NotificationCenter.default.addObserver(forName: UITextField.textDidChangeNotification, object: field, queue: nil) { _ in notified.value += 1 }
        defer { NotificationCenter.default.removeObserver(observer) }
        stage.window.addSubview(field)
        XCTAssertFalse(field.isEditing)
        try stage.tap(at: CGPoint(x: 100, y: 27))
        XCTAssertTrue(field.isEditing)
        XCTAssertTrue(field.isFirstResponder)
        field.insertText("Hi")
        field.insertText("!")
        delegate.refuseDigits = true
        field.insertText("7")
        XCTAssertEqual(field.text, "Hi!", "the delegate refused the digit")
        field.deleteBackward()
        XCTAssertEqual(field.text, "Hi")
        field.pressReturn()
        // Another field taking the focus ends this one's editing.
        let other = UITextField(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        stage.window.addSubview(other)
        XCTAssertTrue(other.becomeFirstResponder())
        XCTAssertFalse(field.isEditing)
        XCTAssertEqual(delegate.calls, ["should begin", "did begin", "change 0,0 \"Hi\"", "change 2,0 \"!\"", "change 3,0 \"7\"", "change 2,1 \"\"", "return", "did end"])
        XCTAssertEqual(events.names, ["began", "changed", "changed", "changed", "ended"])
        XCTAssertEqual(notified.value, 3)
        XCTAssertTrue(other.resignFirstResponder())
        XCTAssertFalse(other.isFirstResponder)
    }

    func testPlaceholdersSecureEntryAndTheClearButton() throws {
        let stage = try makeStage(width: 200, height: 40)
        stage.window.backgroundColor = .white
        let field = UITextField(frame: CGRect(x: 0, y: 3, width: 200, height: 34))
        field.borderStyle = .roundedRect
        XCTAssertEqual(field.sizeThatFits(.zero).height, 34, "a rounded field is 34 points high at 17 points")
        field.placeholder = "Search"
        field.clearButtonMode = .whileEditing
        stage.window.addSubview(field)
        try stage.wait(0)
        // The placeholder is drawn in the placeholder colour (grey), not the label's black.
        let first = try stage.bitmap(ofFrame: 0)
        let darkest = (0..<200).map { Int(first.rgba($0, 20)[1]) }.min() ?? 255
        XCTAssertGreaterThan(darkest, 100)
        XCTAssertLessThan(darkest, 220)
        field.isSecureTextEntry = true
        XCTAssertTrue(field.becomeFirstResponder())
        field.insertText("secret")
        XCTAssertEqual(field.text, "secret")
        XCTAssertEqual(field.subviews.compactMap { ($0 as? UILabel)?.text }, ["••••••"])
        // The clear button shows while editing and clears on a tap, asking textFieldShouldClear only.
        let delegate = Delegate()
        field.delegate = delegate
        let clear = field.clearButtonRect(forBounds: field.bounds)
        try stage.tap(at: CGPoint(x: clear.midX, y: clear.midY + 3))
        XCTAssertEqual(field.text, "")
        XCTAssertTrue(field.isEditing)
        XCTAssertEqual(delegate.calls, [], "no shouldChangeCharactersIn for a clear")
        // endEditing(_:) on an ancestor ends it.
        XCTAssertTrue(stage.window.endEditing(true))
        XCTAssertFalse(field.isEditing)
        XCTAssertEqual(delegate.calls, ["did end"])
    }

    /// Fields in their border styles, with a placeholder, text, secure text, a left view and the clear
    /// button: a golden at @1x (looked at @3x first).
    func testBorderStylesAsDrawn() throws {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 220, height: 170))
        root.backgroundColor = .systemGroupedBackground
        let rounded = UITextField(frame: CGRect(x: 10, y: 10, width: 200, height: 34))
        rounded.borderStyle = .roundedRect
        rounded.placeholder = "Email"
        let filled = UITextField(frame: CGRect(x: 10, y: 50, width: 200, height: 34))
        filled.borderStyle = .roundedRect
        filled.text = "Password"
        filled.isSecureTextEntry = true
        let search = UITextField(frame: CGRect(x: 10, y: 90, width: 200, height: 34))
        search.borderStyle = .roundedRect
        let glass = UIImageView(image: UIImage(systemName: "magnifyingglass"))
        glass.tintColor = .secondaryLabel
        glass.contentMode = .center
        glass.frame = CGRect(x: 0, y: 0, width: 30, height: 20)
        search.leftView = glass
        search.leftViewMode = .always
        search.text = "Nara"
        search.clearButtonMode = .always
        let line = UITextField(frame: CGRect(x: 10, y: 130, width: 200, height: 30))
        line.borderStyle = .line
        line.text = "Line"
        for field in [rounded, filled, search, line] { root.addSubview(field) }
        try IOSParityTests.keep(try ViewImageConfig.draw(root, size: nil, traits: UITraitCollection(displayScale: 3)), name: "text-fields@3x.png")
        assertSnapshot(of: root, as: .image(traits: UITraitCollection(displayScale: 1)))
    }
}
