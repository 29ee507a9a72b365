/// Findings of `smokescreen lint` that built-in transitions show on purpose, with the reason: a
/// transition made to show a problem, or an animation that never ends.
public enum LintExceptions {
    /// (built-in, finding kind, subject prefix, reason). Every other built-in is clean.
    public static let all: [(transition: String, kind: String, subject: String, reason: String)] = [
        ("inippon-history-sectioned", "jump", "window/table",
         "seed 000's problem on purpose: the closed section's tall rows leave above the visible area and the offset stays, so everything on screen is carried up"),
    ]

    /// The reason `finding` is intended in the built-in `transition`, or nil.
    public static func reason(kind: String, subject: String, in transition: String) -> String? {
        all.first { $0.transition == transition && $0.kind == kind && subject.hasPrefix($0.subject) }?.reason
    }
}
