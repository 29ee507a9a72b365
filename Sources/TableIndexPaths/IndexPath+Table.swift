import Foundation

// Tables use Foundation's `IndexPath`, as UIKit does, with UIKit's table additions: code that builds
// index paths with `IndexPath(row:section:)` ports unchanged, and there is no second type to clash with.
extension IndexPath {
    /// The index path of `row` in `section`, as UIKit's `IndexPath(row:section:)`.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// Zero-based row within the section: the second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// Zero-based section: the first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }
}
