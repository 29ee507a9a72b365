/// Why a table refused an update or a request: the table is left as it was.
///
/// The messages follow UIKit's `NSInternalInconsistencyException` texts, which name the section, the
/// counts before and after, and what was inserted, deleted and moved.
public enum TableViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The number of sections after the update does not add up.
    case invalidNumberOfSections(after: Int, before: Int, inserted: Int, deleted: Int)
    /// The number of rows of a section after the update does not add up.
    case invalidNumberOfRows(section: Int, after: Int, before: Int, inserted: Int, deleted: Int, movedIn: Int, movedOut: Int)
    /// An index path or section outside the table (before or after the update, as the operation uses).
    case outOfRange(operation: String, what: String, limit: String)
    /// Two operations of one update on the same row or section that cannot both happen.
    case conflict(String)
    /// A row asked for without a data source, or a cell identifier never registered.
    case misuse(String)
    /// An update's count of rows or sections is beyond what a table holds.
    case tooLarge(String)

    public var description: String {
        switch self {
        case let .invalidNumberOfSections(after, before, inserted, deleted):
            "invalid update: invalid number of sections. The number of sections contained in the table view after the update (\(after)) must be equal to the number of sections contained in the table view before the update (\(before)), plus or minus the number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted)."
        case let .invalidNumberOfRows(section, after, before, inserted, deleted, movedIn, movedOut):
            "invalid update: invalid number of rows in section \(section). The number of rows contained in an existing section after the update (\(after)) must be equal to the number of rows contained in that section before the update (\(before)), plus or minus the number of rows inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of rows moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
        case let .outOfRange(operation, what, limit):
            "invalid update: attempt to \(operation) \(what), but \(limit)"
        case .conflict(let text): "invalid update: \(text)"
        case .misuse(let text): text
        case .tooLarge(let text): text
        }
    }
}
