import Foundation
/// The operations of one batch update, as recorded between `beginUpdates()` and `endUpdates()` (or in
/// `performBatchUpdates`): deletes, reloads and move sources use index paths before the update; inserts
/// and move destinations use index paths after it.
package struct TableUpdate {
    package var insertedSections: [(Int, TableViewRowAnimation)] = []
    package var deletedSections: [(Int, TableViewRowAnimation)] = []
    package var reloadedSections: [(Int, TableViewRowAnimation)] = []
    package var movedSections: [(from: Int, to: Int)] = []
    package var insertedRows: [(IndexPath, TableViewRowAnimation)] = []
    package var deletedRows: [(IndexPath, TableViewRowAnimation)] = []
    package var reloadedRows: [(IndexPath, TableViewRowAnimation)] = []
    package var movedRows: [(from: IndexPath, to: IndexPath)] = []

    package init() {}

    /// Whether nothing was recorded.
    package var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && reloadedSections.isEmpty && movedSections.isEmpty
            && insertedRows.isEmpty && deletedRows.isEmpty && reloadedRows.isEmpty && movedRows.isEmpty
    }
}

/// What one update does to every section and row: checked against the counts before and after as UIKit
/// checks them, then resolved into a mapping from each row before to its place after (or its removal).
///
/// Rows that stay keep their order: the places after the update not taken by inserted rows and move
/// destinations are filled, in order, by the rows before it that are neither deleted nor moved, as
/// UIKit resolves a combined update.
package struct TableUpdatePlan {
    /// For each section before: its index after, or nil when deleted.
    package var sectionAfter: [Int?] = []
    /// For each section after: its index before, or nil when inserted.
    package var sectionBefore: [Int?] = []
    /// For each section before and each of its rows: the row's index path after, or nil when deleted.
    package var rowAfter: [[IndexPath?]] = []
    /// For each section after and each of its rows: the row's index path before, or nil when inserted.
    package var rowBefore: [[IndexPath?]] = []
    /// Sections (after) inserted, and how; reloaded sections are deleted and inserted.
    package var insertedSectionStyle: [Int: TableViewRowAnimation] = [:]
    /// Sections (before) deleted, and how.
    package var deletedSectionStyle: [Int: TableViewRowAnimation] = [:]
    /// Rows (after) inserted, and how; a reloaded row is deleted and inserted.
    package var insertedRowStyle: [IndexPath: TableViewRowAnimation] = [:]
    /// Rows (before) deleted, and how.
    package var deletedRowStyle: [IndexPath: TableViewRowAnimation] = [:]
    /// Rows (before) that are reloaded: deleted and inserted where they stay.
    package var reloadedRows: Set<IndexPath> = []
    /// Sections (before) that are reloaded.
    package var reloadedSections: Set<Int> = []
    /// Rows (before) moved with `moveRow`, and sections (before) moved with `moveSection`: drawn in front.
    package var movedRows: Set<IndexPath> = []
    package var movedSections: Set<Int> = []

    /// Checks `update` against the row counts before (`before[s]` rows in section s) and after, and
    /// resolves it. Throws a ``TableViewError`` naming the section, counts or index path at fault.
    package init(_ update: TableUpdate, before: [Int], after: [Int]) throws(TableViewError) {
        let s0 = before.count, s1 = after.count
        // A table's index paths are (section, row): anything else would trap on `row` or `section`.
        for ip in update.insertedRows.map(\.0) + update.deletedRows.map(\.0) + update.reloadedRows.map(\.0)
            + update.movedRows.flatMap({ [$0.from, $0.to] }) where ip.count != 2 {
            throw .outOfRange(operation: "use", what: "index path \(ip)", limit: "a table's index paths have a section and a row")
        }

        // Sections.
        var deleted = Set<Int>(), reloaded = Set<Int>(), inserted = Set<Int>()
        for (s, style) in update.deletedSections {
            guard s >= 0 && s < s0 else { throw .outOfRange(operation: "delete", what: "section \(s)", limit: "there are only \(s0) sections before the update") }
            deleted.insert(s)
            deletedSectionStyle[s] = style
        }
        for (s, style) in update.reloadedSections {
            guard s >= 0 && s < s0 else { throw .outOfRange(operation: "reload", what: "section \(s)", limit: "there are only \(s0) sections before the update") }
            guard !deleted.contains(s) else { throw .conflict("attempt to delete and reload the same section (\(s))") }
            reloaded.insert(s)
            deletedSectionStyle[s] = style
        }
        var moveFrom = [Int: Int](), moveTo = [Int: Int]()
        for (from, to) in update.movedSections {
            guard from >= 0 && from < s0 else { throw .outOfRange(operation: "move", what: "section \(from)", limit: "there are only \(s0) sections before the update") }
            guard to >= 0 && to < s1 else { throw .outOfRange(operation: "move section \(from) to", what: "section \(to)", limit: "there are only \(s1) sections after the update") }
            guard !deleted.contains(from) else { throw .conflict("attempt to move section \(from), which is being deleted") }
            guard !reloaded.contains(from) else { throw .conflict("attempt to move section \(from), which is being reloaded") }
            guard moveFrom[from] == nil else { throw .conflict("attempt to move section \(from) twice") }
            guard moveTo[to] == nil else { throw .conflict("attempt to move two sections (\(moveTo[to]!) and \(from)) to section \(to)") }
            moveFrom[from] = to
            moveTo[to] = from
        }
        for (s, style) in update.insertedSections {
            guard s >= 0 && s < s1 else { throw .outOfRange(operation: "insert", what: "section \(s)", limit: "there are only \(s1) sections after the update") }
            guard moveTo[s] == nil else { throw .conflict("attempt to insert section \(s) and move section \(moveTo[s]!) to it") }
            inserted.insert(s)
            insertedSectionStyle[s] = style
        }
        guard s1 == s0 - deleted.count + inserted.count else {
            throw .invalidNumberOfSections(after: s1, before: s0, inserted: inserted.count, deleted: deleted.count)
        }
        sectionAfter = Array(repeating: nil, count: s0)
        sectionBefore = Array(repeating: nil, count: s1)
        for (from, to) in moveFrom { sectionAfter[from] = to; sectionBefore[to] = from }
        var nextOld = 0
        for s in 0..<s1 where !inserted.contains(s) && moveTo[s] == nil {
            while nextOld < s0 && (deleted.contains(nextOld) || moveFrom[nextOld] != nil) { nextOld += 1 }
            // The count check guarantees a section is left for every slot.
            sectionAfter[nextOld] = s
            sectionBefore[s] = nextOld
            nextOld += 1
        }
        reloadedSections = reloaded
        movedSections = Set(moveFrom.keys)
        for s in reloaded { if let to = sectionAfter[s] { insertedSectionStyle[to] = deletedSectionStyle[s] } }

        // Rows: every index path checked against its side of the update.
        func checkBefore(_ ip: IndexPath, _ operation: String) throws(TableViewError) {
            guard ip.section >= 0 && ip.section < s0 else { throw .outOfRange(operation: operation, what: "row \(ip.row) in section \(ip.section)", limit: "there are only \(s0) sections before the update") }
            guard ip.row >= 0 && ip.row < before[ip.section] else { throw .outOfRange(operation: operation, what: "row \(ip.row) from section \(ip.section)", limit: "there are only \(before[ip.section]) rows in section \(ip.section) before the update") }
            guard !deleted.contains(ip.section) else { throw .conflict("attempt to \(operation) row \(ip.row) in section \(ip.section), which is being deleted") }
            guard !reloaded.contains(ip.section) else { throw .conflict("attempt to \(operation) row \(ip.row) in section \(ip.section), which is being reloaded") }
        }
        func checkAfter(_ ip: IndexPath, _ operation: String) throws(TableViewError) {
            guard ip.section >= 0 && ip.section < s1 else { throw .outOfRange(operation: operation, what: "row \(ip.row) in section \(ip.section)", limit: "there are only \(s1) sections after the update") }
            guard ip.row >= 0 && ip.row < after[ip.section] else { throw .outOfRange(operation: operation, what: "row \(ip.row) into section \(ip.section)", limit: "there are only \(after[ip.section]) rows in section \(ip.section) after the update") }
            guard let old = sectionBefore[ip.section], !reloaded.contains(old) else {
                throw .conflict("attempt to \(operation) row \(ip.row) into section \(ip.section), which is being inserted or reloaded")
            }
        }
        var deletedRows = Set<IndexPath>()
        for (ip, style) in update.deletedRows {
            try checkBefore(ip, "delete")
            deletedRows.insert(ip)
            deletedRowStyle[ip] = style
        }
        for (ip, style) in update.reloadedRows {
            try checkBefore(ip, "reload")
            guard !deletedRows.contains(ip) else { throw .conflict("attempt to delete and reload the same index path (\(ip))") }
            reloadedRows.insert(ip)
            deletedRowStyle[ip] = style
        }
        var rowMoveFrom = [IndexPath: IndexPath](), rowMoveTo = [IndexPath: IndexPath]()
        for (from, to) in update.movedRows {
            try checkBefore(from, "move")
            try checkAfter(to, "move")
            guard !deletedRows.contains(from) else { throw .conflict("attempt to delete and move the same index path (\(from))") }
            guard !reloadedRows.contains(from) else { throw .conflict("attempt to reload and move the same index path (\(from))") }
            guard rowMoveFrom[from] == nil else { throw .conflict("attempt to move index path \(from) twice") }
            guard rowMoveTo[to] == nil else { throw .conflict("attempt to move two index paths (\(rowMoveTo[to]!) and \(from)) to index path \(to)") }
            rowMoveFrom[from] = to
            rowMoveTo[to] = from
        }
        var insertedRows = Set<IndexPath>()
        for (ip, style) in update.insertedRows {
            try checkAfter(ip, "insert")
            guard rowMoveTo[ip] == nil else { throw .conflict("attempt to insert index path \(ip) and move index path \(rowMoveTo[ip]!) to it") }
            insertedRows.insert(ip)
            insertedRowStyle[ip] = style
        }
        movedRows = Set(rowMoveFrom.keys)

        // Row counts of every section that is neither inserted nor reloaded.
        var deletedIn = [Int](repeating: 0, count: s0), movedOut = [Int](repeating: 0, count: s0)
        var insertedIn = [Int](repeating: 0, count: s1), movedIn = [Int](repeating: 0, count: s1)
        for ip in deletedRows { deletedIn[ip.section] += 1 }
        for ip in insertedRows { insertedIn[ip.section] += 1 }
        for (from, to) in rowMoveFrom where from.section != sectionBefore[to.section] {
            movedOut[from.section] += 1
            movedIn[to.section] += 1
        }
        for s in 0..<s1 {
            guard let o = sectionBefore[s], !reloaded.contains(o) else { continue }
            let expected = before[o] - deletedIn[o] + insertedIn[s] + movedIn[s] - movedOut[o]
            guard after[s] == expected else {
                throw .invalidNumberOfRows(section: s, after: after[s], before: before[o], inserted: insertedIn[s], deleted: deletedIn[o],
                                           movedIn: movedIn[s], movedOut: movedOut[o])
            }
        }

        // The mapping, section by section.
        rowAfter = before.map { Array(repeating: nil, count: $0) }
        rowBefore = after.map { Array(repeating: nil, count: $0) }
        for (from, to) in rowMoveFrom {
            rowAfter[from.section][from.row] = to
            rowBefore[to.section][to.row] = from
        }
        for s in 0..<s1 {
            guard let o = sectionBefore[s] else { continue }
            if reloaded.contains(o) {
                // A reloaded section is replaced whole: nothing maps, every row goes and comes.
                continue
            }
            var next = 0
            for r in 0..<after[s] {
                let ip = IndexPath(row: r, section: s)
                guard !insertedRows.contains(ip) && rowMoveTo[ip] == nil else { continue }
                while next < before[o] {
                    let old = IndexPath(row: next, section: o)
                    if deletedRows.contains(old) || rowMoveFrom[old] != nil { next += 1 } else { break }
                }
                let old = IndexPath(row: next, section: o)
                rowAfter[o][next] = ip
                rowBefore[s][r] = old
                next += 1
            }
        }
        for ip in reloadedRows {
            if let to = rowAfter[ip.section][ip.row] { insertedRowStyle[to] = deletedRowStyle[ip] }
        }
    }

    /// Whether the row before (`ip`) leaves: deleted, reloaded, or in a deleted or reloaded section.
    package func rowLeaves(_ ip: IndexPath) -> Bool {
        rowAfter[ip.section][ip.row] == nil || reloadedRows.contains(ip) || reloadedSections.contains(ip.section)
    }

    /// Whether the row after (`ip`) arrives: inserted, reloaded, or in an inserted or reloaded section.
    package func rowArrives(_ ip: IndexPath) -> Bool {
        guard let old = rowBefore[ip.section][ip.row] else { return true }
        return reloadedRows.contains(old)
    }
}
