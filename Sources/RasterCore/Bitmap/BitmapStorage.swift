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
        pixels = .allocate(capacity: count)
        ledger = MemoryLedger.chargeTarget
        ledger.charge(count * 4)
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
        pixels.deallocate()
        ledger.credit(count * 4)
    }
}
