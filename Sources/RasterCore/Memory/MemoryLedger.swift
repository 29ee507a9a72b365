import Synchronization

/// Exact accounting of bitmap storage, in bytes.
///
/// Every `Bitmap` allocation is charged to the ledger that is current when it is allocated and to each of
/// that ledger's ancestors, up to `MemoryLedger.global`; the free is credited to the same ledgers when the
/// storage goes away. Because the charge travels with the storage, a block of work measured with
/// ``measure(_:_:)`` sees exactly the bitmaps it allocated, whatever other threads do meanwhile.
///
/// The current ledger is a task-local value: it follows the calling thread's synchronous code and child
/// tasks. Work handed to other threads joins a ledger explicitly with ``charging(_:)``.
public final class MemoryLedger: Sendable {
    /// A human-readable name used in reports.
    public let label: String
    let parent: MemoryLedger?
    private let counters = Mutex(MemoryUsage())

    /// The ledger of the whole process; every allocation is charged to it.
    public static let global = MemoryLedger(label: "global", parent: nil)

    @TaskLocal static var current: MemoryLedger?

    /// Creates a ledger whose charges also go to the ledger current now (or `global`).
    public convenience init(label: String) {
        self.init(label: label, parent: MemoryLedger.chargeTarget)
    }

    init(label: String, parent: MemoryLedger?) {
        self.label = label
        self.parent = parent
    }

    /// A snapshot of this ledger's counters.
    public var usage: MemoryUsage { counters.withLock { $0 } }
    /// Bytes of bitmap storage allocated under this ledger and not yet freed.
    public var liveBytes: Int { usage.liveBytes }
    /// The largest value `liveBytes` has had.
    public var peakBytes: Int { usage.peakBytes }

    /// Runs `body` with this ledger current, so that bitmaps it allocates are charged here.
    public func charging<R>(_ body: () throws -> R) rethrows -> R {
        try MemoryLedger.$current.withValue(self) { try body() }
    }

    /// Measures the bitmap memory of a block of work: its peak live bytes (above zero at its start),
    /// the bytes still live when it returns, and its allocation count.
    public static func measure<R>(
        _ label: String = "measured", _ body: () throws -> R
    ) rethrows -> (result: R, usage: MemoryUsage) {
        let ledger = MemoryLedger(label: label)
        let result = try ledger.charging(body)
        return (result, ledger.usage)
    }

    /// The ledger new allocations are charged to right now.
    static var chargeTarget: MemoryLedger { current ?? global }

    /// The ledger allocations on this thread are charged to now (`global` outside any `charging`).
    /// Work handed to other threads charges it with `MemoryLedger.active.charging { … }` there: the
    /// current ledger is task-local and does not follow work onto threads by itself.
    public static var active: MemoryLedger { chargeTarget }

    func charge(_ bytes: Int) {
        var ledger: MemoryLedger? = self
        while let l = ledger {
            l.counters.withLock { $0.allocate(bytes) }
            ledger = l.parent
        }
    }

    func credit(_ bytes: Int) {
        var ledger: MemoryLedger? = self
        while let l = ledger {
            l.counters.withLock { $0.free(bytes) }
            ledger = l.parent
        }
    }
}

/// Counters of one ``MemoryLedger``, in bytes of bitmap storage.
public struct MemoryUsage: Sendable, Equatable, CustomStringConvertible {
    /// Bytes allocated and not yet freed.
    public internal(set) var liveBytes = 0
    /// The largest `liveBytes` seen.
    public internal(set) var peakBytes = 0
    /// How many bitmap storages were allocated.
    public internal(set) var allocationCount = 0
    /// The sum of all allocations, freed or not.
    public internal(set) var totalAllocatedBytes = 0

    /// No bytes: the usage of a block that allocated nothing.
    public init() {}

    mutating func allocate(_ bytes: Int) {
        liveBytes += bytes
        allocationCount += 1
        totalAllocatedBytes += bytes
        if liveBytes > peakBytes { peakBytes = liveBytes }
    }

    mutating func free(_ bytes: Int) {
        liveBytes -= bytes
    }

    public var description: String {
        "live \(liveBytes) B, peak \(peakBytes) B, \(allocationCount) allocations (\(totalAllocatedBytes) B in all)"
    }
}
