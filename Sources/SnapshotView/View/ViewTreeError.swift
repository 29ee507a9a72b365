/// A request the view tree refuses, naming the views involved.
public enum ViewTreeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Adding `child` to `parent` would make a view its own ancestor.
    case cycle(child: String, parent: String)
    /// A conversion between views that do not share a root.
    case differentTrees(from: String, to: String)
    /// A snapshot of a view whose bounds are empty or too large for a bitmap.
    case unrenderable(view: String, reason: String)

    public var description: String {
        switch self {
        case let .cycle(child, parent): "cannot add \(child) to \(parent): \(parent) is inside \(child)"
        case let .differentTrees(from, to): "cannot convert between \(from) and \(to): they are in different view trees"
        case let .unrenderable(view, reason): "cannot render \(view): \(reason)"
        }
    }
}

extension View {
    /// How errors name a view: its name, or its class and frame.
    var label: String { name.map { "'\($0)'" } ?? "\(type(of: self)) at \(frame)" }
}
