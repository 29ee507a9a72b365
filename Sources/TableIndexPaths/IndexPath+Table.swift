import Foundation

// Tables and collection views use Foundation's `IndexPath`, as UIKit does, with UIKit's additions: code that builds
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

    /// The index path of `item` in `section`, as UIKit's `IndexPath(item:section:)` (collection views).
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// Zero-based item within the section (collection views): the second index, as ``row``.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// Zero-based section: the first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }
}
