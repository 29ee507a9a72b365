/// Light or dark, as iOS's `UIUserInterfaceStyle`: which of a system colour's two values a screen is
/// drawn with. Built-in screens take it from a render's settings (`--appearance`);
/// scene files resolve their light/dark colours with it.
public enum Appearance: String, CaseIterable, Hashable, Sendable {
    /// Dark text on light backgrounds (the default).
    case light
    /// Light text on dark backgrounds.
    case dark

    /// The names `--appearance` accepts, in order.
    public static var names: [String] { allCases.map(\.rawValue) }
}
