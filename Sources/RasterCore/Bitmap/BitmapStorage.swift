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
    /// The pixels came from `posix_memalign` (see `allocatePixels`).
    private let alignedAllocation: Bool
    let ledger: MemoryLedger

    /// Allocates uninitialized pixels; the caller initializes every one before reading.
    init(count: Int) {
        self.count = count
        (pixels, alignedAllocation) = BitmapStorage.allocatePixels(count)
        ledger = MemoryLedger.chargeTarget
        ledger.charge(count * 4)
    }

    /// Bitmaps of 2 MiB or more (a @2x frame is 4 MB) are aligned to 2 MiB and offered to the kernel for
    /// transparent huge pages where it allows them (`madvise` mode): 512 times fewer page faults when a
    /// frame or snapshot is first touched, and fewer TLB misses in whole-frame loops. Smaller ones come
    /// from malloc as usual.
    private static let hugePageSize = 2 << 20

    /// Pixels, and whether they came from `posix_memalign` (released with `free`) rather than
    /// `allocate` (released with `deallocate`).
    private static func allocatePixels(_ count: Int) -> (UnsafeMutablePointer<UInt32>, aligned: Bool) {
        #if canImport(Glibc)
        let bytes = count * 4
        if bytes >= hugePageSize {
            var raw: UnsafeMutableRawPointer?
            if posix_memalign(&raw, hugePageSize, bytes) == 0, let raw {
                _ = madvise(raw, (bytes / hugePageSize) * hugePageSize, MADV_HUGEPAGE)
                return (raw.bindMemory(to: UInt32.self, capacity: count), true)
            }
        }
        #endif
        return (.allocate(capacity: count), false)
    }

    /// One pixel that no ledger counts: the stand-in a `Painter` leaves behind while it owns a bitmap.
    init(uncounted: Void) {
        count = 1
        alignedAllocation = false
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
        #if canImport(Glibc)
        if alignedAllocation { free(pixels) } else { pixels.deallocate() }
        #else
        pixels.deallocate()
        #endif
        ledger.credit(count * 4)
    }
}
