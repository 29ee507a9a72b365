/// The attribute keys UIKit adds to Foundation's (Foundation on Linux has none of them), with Apple's raw
/// values, so that attribute dictionaries written for iOS compile. Controls that take text attributes
/// (`UISegmentedControl`) draw `.font` and `.foregroundColor`; the others are kept.
extension NSAttributedString.Key {
    public static let font = NSAttributedString.Key(rawValue: "NSFont")
    public static let foregroundColor = NSAttributedString.Key(rawValue: "NSColor")
    public static let backgroundColor = NSAttributedString.Key(rawValue: "NSBackgroundColor")
    public static let kern = NSAttributedString.Key(rawValue: "NSKern")
    public static let paragraphStyle = NSAttributedString.Key(rawValue: "NSParagraphStyle")
    public static let underlineStyle = NSAttributedString.Key(rawValue: "NSUnderline")
    public static let strikethroughStyle = NSAttributedString.Key(rawValue: "NSStrikethrough")
    public static let baselineOffset = NSAttributedString.Key(rawValue: "NSBaselineOffset")
}

/// Bar metrics for appearance images, with Apple's raw values (images for them are kept, not drawn).
public enum UIBarMetrics: Int, Sendable {
    case `default` = 0, compact = 1, defaultPrompt = 101, compactPrompt = 102
}
