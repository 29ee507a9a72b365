#if canImport(Glibc)
import Glibc
#endif

/// The pixel memory of a `Bitmap`: one allocation of `width * height` packed pixels, charged to a
/// `MemoryLedger` for as long as it lives.
///
/// Shared between `Bitmap` values until one of them mutates (copy on write), so it is only ever written
/// while uniquely referenced; that is what makes the unchecked `Sendable` sound.
@usableFromInline
final class BitmapStorage: @unchecked Sendable {
    @usableFromInline let pixels: UnsafeMutablePointer<UInt32>
    @usableFromInline let count: Int
    let ledger: MemoryLedger

    /// Allocates uninitialized pixels; the caller initializes every one before reading.
    init(count: Int) {
        self.count = count
        pixels = BitmapStorage.allocatePixels(count)
        ledger = MemoryLedger.chargeTarget
        ledger.charge(count * 4)
    }

    /// Bitmaps of 2 MiB or more (a @2x frame is 4 MB) are aligned to 2 MiB and offered to the kernel for
    /// transparent huge pages where it allows them (`madvise` mode): 512 times fewer page faults when a
    /// frame or snapshot is first touched, and fewer TLB misses in whole-frame loops. Smaller ones come
    /// from malloc as usual.
    private static let hugePageSize = 2 << 20

    private static func allocatePixels(_ count: Int) -> UnsafeMutablePointer<UInt32> {
        let bytes = count * 4
        #if os(Linux)
        if bytes >= hugePageSize {
            var raw: UnsafeMutableRawPointer?
            if posix_memalign(&raw, hugePageSize, bytes) == 0, let raw {
                _ = madvise(raw, (bytes / hugePageSize) * hugePageSize, MADV_HUGEPAGE)
                return raw.bindMemory(to: UInt32.self, capacity: count)
            }
        }
        #endif
        return .allocate(capacity: count)
    }

    /// One pixel that no ledger counts: the stand-in a `Painter` leaves behind while it owns a bitmap.
    init(uncounted: Void) {
        count = 1
        pixels = .allocate(capacity: 1)
        pixels.initialize(to: 0)
        ledger = MemoryLedger(label: "uncounted", parent: nil)
        ledger.charge(4)
    }

    @usableFromInline
    func copy() -> BitmapStorage {
        let copy = BitmapStorage(count: count)
        copy.pixels.update(from: pixels, count: count)
        return copy
    }

    deinit {
        // Both allocations (malloc'd by .allocate, or posix_memalign) are released by free.
        free(pixels)
        ledger.credit(count * 4)
    }
}
