/// A row's place in a table: its section and its row within that section, as UIKit's `IndexPath` for
/// table views. Ordered by section, then row.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Zero-based row within the section.
    public var row: Int
    /// Zero-based section.
    public var section: Int

    /// The index path of `row` in `section`.
    public init(row: Int, section: Int) {
        self.row = row
        self.section = section
    }

    public static func < (a: IndexPath, b: IndexPath) -> Bool { (a.section, a.row) < (b.section, b.row) }

    /// `[section, row]`, as Foundation prints an index path.
    public var description: String { "[\(section), \(row)]" }
}
