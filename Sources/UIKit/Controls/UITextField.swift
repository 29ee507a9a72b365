/// Keyboard types, with Apple's raw values (kept: there is no keyboard on a stage).
public enum UIKeyboardType: Int, Sendable {
    case `default` = 0, asciiCapable, numbersAndPunctuation, URL, numberPad, phonePad, namePhonePad, emailAddress, decimalPad, twitter,
         webSearch, asciiCapableNumberPad
}

/// Return key types, with Apple's raw values (kept).
public enum UIReturnKeyType: Int, Sendable {
    case `default` = 0, go, google, join, next, route, search, send, yahoo, done, emergencyCall, `continue`
}

/// Autocapitalization, autocorrection and spell checking, with Apple's raw values (kept).
public enum UITextAutocapitalizationType: Int, Sendable { case none = 0, words, sentences, allCharacters }
public enum UITextAutocorrectionType: Int, Sendable { case `default` = 0, no, yes }
public enum UITextSpellCheckingType: Int, Sendable { case `default` = 0, no, yes }

/// What a text field's content is (kept), with Apple's raw values.
public struct UITextContentType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let name = UITextContentType(rawValue: "name")
    public static let username = UITextContentType(rawValue: "username")
    public static let password = UITextContentType(rawValue: "password")
    public static let newPassword = UITextContentType(rawValue: "new-password")
    public static let oneTimeCode = UITextContentType(rawValue: "one-time-code")
    public static let emailAddress = UITextContentType(rawValue: "email")
    public static let telephoneNumber = UITextContentType(rawValue: "tel")
    public static let URL = UITextContentType(rawValue: "url")
}

/// What a text field tells its delegate, as UIKit's (every method optional: defaults allow and do
/// nothing).
public protocol UITextFieldDelegate: AnyObject {
    func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool
    func textFieldDidBeginEditing(_ textField: UITextField)
    func textFieldShouldEndEditing(_ textField: UITextField) -> Bool
    func textFieldDidEndEditing(_ textField: UITextField)
    func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason)
    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String) -> Bool
    func textFieldDidChangeSelection(_ textField: UITextField)
    func textFieldShouldClear(_ textField: UITextField) -> Bool
    func textFieldShouldReturn(_ textField: UITextField) -> Bool
}

extension UITextFieldDelegate {
    public func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool { true }
    public func textFieldDidBeginEditing(_ textField: UITextField) {}
    public func textFieldShouldEndEditing(_ textField: UITextField) -> Bool { true }
    public func textFieldDidEndEditing(_ textField: UITextField) {}
    public func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason) { textFieldDidEndEditing(textField) }
    public func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String) -> Bool { true }
    public func textFieldDidChangeSelection(_ textField: UITextField) {}
    public func textFieldShouldClear(_ textField: UITextField) -> Bool { true }
    public func textFieldShouldReturn(_ textField: UITextField) -> Bool { true }
}

/// UIKit's text field: one line of text (or its placeholder) in a font and colour, inside a border
/// style, with views and a clear button at its ends. There is no keyboard on a stage: a tap (or
/// ``becomeFirstResponder()``) begins editing, and a script types with ``insertText(_:)`` and
/// ``deleteBackward()``, which ask the delegate and send `.editingChanged` as typing does. The caret is
/// not drawn (as a snapshot that hides it).
///
/// The font is the system font at 17 points and the text sits left and centred vertically, sized to
/// fit its text, as iOS 17 draws a plain field (measured: AccessibilitySnapshot's "Hello world" field,
/// docs/ios-parity.md#controls). `.roundedRect`'s 34-point height, 7-point text inset, 5-point corners and
/// hairline border are estimates.
open class UITextField: UIControl {
    /// Border styles, with Apple's raw values.
    public enum BorderStyle: Int, Sendable { case none = 0, line, bezel, roundedRect }
    /// When an end view or the clear button shows, with Apple's raw values.
    public enum ViewMode: Int, Sendable { case never = 0, whileEditing, unlessEditing, always }
    public enum DidEndEditingReason: Int, Sendable { case committed = 0, cancelled = 1 }

    /// Posted (on the default centre) after the text changes by typing.
    public static let textDidChangeNotification = Notification.Name("UITextFieldTextDidChangeNotification")
    public static let textDidBeginEditingNotification = Notification.Name("UITextFieldTextDidBeginEditingNotification")
    public static let textDidEndEditingNotification = Notification.Name("UITextFieldTextDidEndEditingNotification")

    enum Metrics {
        static let roundedRectInset: CGFloat = 7
        static let roundedRectCornerRadius: CGFloat = 5
        /// Points above and below a rounded field's text when sized to fit (34 points at 17).
        static let roundedRectPadding: CGFloat = 13
        static let clearButtonSide: CGFloat = 19
    }

    /// The field being edited now, if any (one at a time, as the first responder).
    nonisolated(unsafe) static weak var editingField: UITextField?

    private let border = UIView()
    private let textLabel = UILabel()
    private let clearButton = UIImageView()
    private var editing = false

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        textLabel.font = .systemFont(ofSize: 17)
        textLabel.lineBreakMode = .byClipping
        clearButton.image = UIImage(systemName: "xmark.circle.fill", withConfiguration: UIImage.SymbolConfiguration(pointSize: 15))
        clearButton.tintColor = .tertiaryLabel
        clearButton.contentMode = .center
        border.isUserInteractionEnabled = false
        addSubview(border)
        addSubview(textLabel)
        addSubview(clearButton)
        refresh()
    }

    public convenience init() { self.init(frame: .zero) }

    public required init?(coder: NSCoder) { nil }

    // MARK: Content

    /// The text; nil reads as "" once set, as UIKit's.
    open var text: String? {
        get { storedText }
        set { storedText = newValue ?? ""; refresh() }
    }
    private var storedText = ""

    /// Drawn as its string, in the field's font and colour.
    open var attributedText: NSAttributedString? {
        get { NSAttributedString(string: storedText) }
        set { text = newValue?.string }
    }

    /// Shown in the placeholder colour while the text is empty.
    open var placeholder: String? { didSet { refresh() } }
    open var attributedPlaceholder: NSAttributedString? {
        get { placeholder.map { NSAttributedString(string: $0) } }
        set { placeholder = newValue?.string }
    }

    /// Default the system font at 17 points.
    open var font: UIFont? { get { textLabel.font } set { textLabel.font = newValue ?? .systemFont(ofSize: 17); refresh() } }
    /// Default `.label`.
    open var textColor: UIColor? { didSet { refresh() } }
    /// Default `.natural`.
    open var textAlignment = NSTextAlignment.natural { didSet { refresh() } }
    /// Default `.none`.
    open var borderStyle = BorderStyle.none { didSet { refresh() } }
    /// Kept; not drawn (noted).
    open var background: UIImage? { didSet { if background != nil { NotDrawn.note("UITextField background images") } } }
    open var disabledBackground: UIImage?
    /// Kept: the font is not shrunk.
    open var adjustsFontSizeToFitWidth = false
    open var minimumFontSize: CGFloat = 0
    open var clearsOnBeginEditing = false
    open var clearButtonMode = ViewMode.never { didSet { refresh() } }
    open var leftView: UIView? { didSet { replaceEndView(oldValue, with: leftView) } }
    open var leftViewMode = ViewMode.never { didSet { refresh() } }
    open var rightView: UIView? { didSet { replaceEndView(oldValue, with: rightView) } }
    open var rightViewMode = ViewMode.never { didSet { refresh() } }
    /// Shown as bullets, one per character.
    open var isSecureTextEntry = false { didSet { refresh() } }
    open weak var delegate: UITextFieldDelegate?
    open var inputView: UIView?
    open var inputAccessoryView: UIView?

    // The input traits: kept.
    open var keyboardType = UIKeyboardType.default
    open var returnKeyType = UIReturnKeyType.default
    open var autocapitalizationType = UITextAutocapitalizationType.sentences
    open var autocorrectionType = UITextAutocorrectionType.default
    open var spellCheckingType = UITextSpellCheckingType.default
    open var textContentType: UITextContentType?
    open var enablesReturnKeyAutomatically = false

    private func replaceEndView(_ old: UIView?, with new: UIView?) {
        old?.removeFromSuperview()
        if let new { addSubview(new) }
        refresh()
    }

    // MARK: Editing

    open var isEditing: Bool { editing }
    open override var canBecomeFirstResponder: Bool { isEnabled }
    open override var isFirstResponder: Bool { editing }

    /// Begins editing when the delegate allows: `.editingDidBegin`, the delegate told, the notification
    /// posted. No keyboard shows.
    @discardableResult
    open override func becomeFirstResponder() -> Bool {
        guard !editing else { return true }
        guard isEnabled, delegate?.textFieldShouldBeginEditing(self) ?? true else { return false }
        if let other = UITextField.editingField, other !== self, !other.resignFirstResponder() { return false }
        editing = true
        UITextField.editingField = self
        if clearsOnBeginEditing, delegate?.textFieldShouldClear(self) ?? true { storedText = "" }
        refresh()
        sendActions(for: .editingDidBegin)
        delegate?.textFieldDidBeginEditing(self)
        NotificationCenter.default.post(name: UITextField.textDidBeginEditingNotification, object: self)
        return true
    }

    /// Ends editing without asking the delegate (`endEditing(true)`).
    func endEditingForced() -> Bool {
        guard editing else { return true }
        editing = false
        if UITextField.editingField === self { UITextField.editingField = nil }
        refresh()
        sendActions(for: .editingDidEnd)
        delegate?.textFieldDidEndEditing(self, reason: .committed)
        NotificationCenter.default.post(name: UITextField.textDidEndEditingNotification, object: self)
        return true
    }

    /// Ends editing when the delegate allows: `.editingDidEnd`, the delegate told.
    @discardableResult
    open override func resignFirstResponder() -> Bool {
        guard editing else { return true }
        guard delegate?.textFieldShouldEndEditing(self) ?? true else { return false }
        return endEditingForced()
    }

    /// Types `text` at the end (where the caret is here), as the keyboard would: the delegate may refuse
    /// it; otherwise `.editingChanged` is sent and the notification posted. Begins editing first.
    open func insertText(_ text: String) {
        replace(NSRange(location: (storedText as NSString).length, length: 0), with: text)
    }

    /// Deletes the last character, as the keyboard's delete key.
    open func deleteBackward() {
        let length = (storedText as NSString).length
        guard length > 0 else { return }
        let last = (storedText as NSString).rangeOfComposedCharacterSequence(at: length - 1)
        replace(last, with: "")
    }

    /// The return key: asks the delegate (`textFieldShouldReturn(_:)`) and sends
    /// `.editingDidEndOnExit` and `.primaryActionTriggered`, as the keyboard's return does.
    open func pressReturn() {
        guard editing else { return }
        if delegate?.textFieldShouldReturn(self) ?? true { sendActions(for: [.editingDidEndOnExit, .primaryActionTriggered]) }
    }

    /// Empties the text as the clear button does: `.editingChanged` and the notification, no
    /// `shouldChangeCharactersIn` (UIKit asks `textFieldShouldClear(_:)` instead).
    private func clear() {
        guard !storedText.isEmpty else { return }
        storedText = ""
        refresh()
        sendActions(for: .editingChanged)
        NotificationCenter.default.post(name: UITextField.textDidChangeNotification, object: self)
    }

    private func replace(_ range: NSRange, with string: String) {
        guard editing || becomeFirstResponder() else { return }
        guard delegate?.textField(self, shouldChangeCharactersIn: range, replacementString: string) ?? true else { return }
        storedText = (storedText as NSString).replacingCharacters(in: range, with: string)
        refresh()
        sendActions(for: .editingChanged)
        delegate?.textFieldDidChangeSelection(self)
        NotificationCenter.default.post(name: UITextField.textDidChangeNotification, object: self)
    }

    /// A tap begins editing; a tap on the clear button clears (when the delegate allows).
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        if isEnabled, let touch = touches.first {
            let point = touch.location(in: self)
            if !clearButton.isHidden, clearButton.frame.insetBy(dx: -6, dy: -6).contains(point) {
                if delegate?.textFieldShouldClear(self) ?? true { clear() }
            } else if bounds.contains(point) {
                becomeFirstResponder()
            }
        }
        super.touchesEnded(touches, with: event)
    }

    override func stateDidChange() { refresh() }

    // MARK: Drawing

    private func shows(_ mode: ViewMode) -> Bool {
        switch mode {
        case .never: false
        case .always: true
        case .whileEditing: editing
        case .unlessEditing: !editing
        }
    }

    private func refresh() {
        let showingPlaceholder = storedText.isEmpty
        textLabel.text = showingPlaceholder ? placeholder : (isSecureTextEntry ? String(repeating: "•", count: storedText.count) : storedText)
        textLabel.textColor = showingPlaceholder ? .placeholderText : (textColor ?? .label)
        textLabel.textAlignment = textAlignment
        textLabel.alpha = isEnabled ? 1 : 0.35
        clearButton.isHidden = storedText.isEmpty || !shows(clearButtonMode)
        leftView?.isHidden = !shows(leftViewMode)
        rightView?.isHidden = !shows(rightViewMode) || !clearButton.isHidden
        // The border is drawn by a view of its own, so the field's own background colour stays the user's.
        border.isHidden = borderStyle == .none
        switch borderStyle {
        case .none: break
        case .line:
            border.backgroundColor = nil
            border.layer.borderWidth = 1
            border.layer.borderColor = UIColor.label.cgColor
            border.layer.cornerRadius = 0
        case .bezel:
            border.backgroundColor = nil
            border.layer.borderWidth = 1
            border.layer.borderColor = UIColor.systemGray.cgColor
            border.layer.cornerRadius = 0
        case .roundedRect:
            border.backgroundColor = .tertiarySystemBackground
            border.layer.borderWidth = 1 / max(1, UIScreen.main.scale)
            border.layer.borderColor = UIColor(white: 0, alpha: 0.2).cgColor
            border.layer.cornerRadius = Metrics.roundedRectCornerRadius
        }
        invalidateIntrinsicContentSize()
        setNeedsLayout()
    }

    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        refresh()
    }

    // MARK: Geometry (points)

    private var horizontalInset: CGFloat { borderStyle == .roundedRect ? Metrics.roundedRectInset : (borderStyle == .none ? 0 : 4) }

    open func borderRect(forBounds bounds: CGRect) -> CGRect { bounds }

    open func leftViewRect(forBounds bounds: CGRect) -> CGRect {
        guard let leftView, shows(leftViewMode) else { return CGRect(x: bounds.minX, y: bounds.midY, width: 0, height: 0) }
        let size = leftView.frame.size == .zero ? leftView.sizeThatFits(bounds.size) : leftView.frame.size
        return CGRect(x: bounds.minX, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
    }

    open func rightViewRect(forBounds bounds: CGRect) -> CGRect {
        guard let rightView, shows(rightViewMode) else { return CGRect(x: bounds.maxX, y: bounds.midY, width: 0, height: 0) }
        let size = rightView.frame.size == .zero ? rightView.sizeThatFits(bounds.size) : rightView.frame.size
        return CGRect(x: bounds.maxX - size.width, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
    }

    open func clearButtonRect(forBounds bounds: CGRect) -> CGRect {
        let side = Metrics.clearButtonSide
        return CGRect(x: bounds.maxX - side - (borderStyle == .none ? 0 : 6), y: bounds.midY - side / 2, width: side, height: side)
    }

    /// Where the text is drawn: the bounds less the border's inset and the end views.
    open func textRect(forBounds bounds: CGRect) -> CGRect {
        let left = leftView?.isHidden == false ? leftViewRect(forBounds: bounds).maxX : bounds.minX + horizontalInset
        var right = bounds.maxX - horizontalInset
        if !clearButton.isHidden { right = clearButtonRect(forBounds: bounds).minX - 4 } else if rightView?.isHidden == false { right = rightViewRect(forBounds: bounds).minX }
        return CGRect(x: left, y: bounds.minY, width: max(0, right - left), height: bounds.height)
    }

    open func editingRect(forBounds bounds: CGRect) -> CGRect { textRect(forBounds: bounds) }
    open func placeholderRect(forBounds bounds: CGRect) -> CGRect { textRect(forBounds: bounds) }

    open override func layoutSubviews() {
        super.layoutSubviews()
        border.frame = borderRect(forBounds: bounds)
        leftView?.frame = leftViewRect(forBounds: bounds)
        rightView?.frame = rightViewRect(forBounds: bounds)
        clearButton.frame = clearButtonRect(forBounds: bounds)
        let rect = textRect(forBounds: bounds)
        let height = textLabel.sizeThatFits(.zero).height
        // On whole pixels of the field's own grid, as UIKit places a control's content: a label layer
        // resting between pixel rows would draw its text blended across them.
        let scale = max(1, UIScreen.main.scale)
        textLabel.frame = CGRect(x: rect.minX, y: ((rect.midY - height / 2) * scale).rounded() / scale, width: rect.width, height: height)
    }

    /// Points: the text's (or placeholder's) size, with the border's insets; a rounded field 13 points
    /// higher than its text line (34 at 17 points).
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let probe = UILabel()
        probe.font = textLabel.font
        probe.text = textLabel.text ?? " "
        var fitted = probe.sizeThatFits(.zero)
        if textLabel.text == nil { fitted.width = 0 }
        fitted.width += 2 * horizontalInset + leftViewRect(forBounds: .zero).width + rightViewRect(forBounds: .zero).width
        if borderStyle == .roundedRect { fitted.height += Metrics.roundedRectPadding }
        return fitted
    }

    open override var intrinsicContentSize: CGSize { sizeThatFits(.zero) }
}

extension UIView {
    /// Ends the editing of the text field in this view's tree, if one is editing (it resigns first
    /// responder); with `force` even when its delegate would keep it. True when nothing is left editing.
    @discardableResult
    public func endEditing(_ force: Bool) -> Bool {
        guard let field = UITextField.editingField, field === self || field.isDescendant(of: self) else { return true }
        return force ? field.endEditingForced() : field.resignFirstResponder()
    }
}
