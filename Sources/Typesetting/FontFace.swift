#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CFreeType
import CHarfBuzz
import Synchronization

/// One font file opened with FreeType, with everything layout reads taken out once at load.
///
/// Metrics are immutable after loading, and advances and the character map come from the immutable
/// HarfBuzz font, so layout reads them without locking. FreeType itself (glyph loading, rendering) runs
/// under `handle`'s lock, because an `FT_Face` must not be used by two threads at once. Each face has its
/// own `FT_Library`, so faces never contend with each other. Shaping goes through the face's HarfBuzz
/// font (``shape(_:range:rightToLeft:language:)``), which is immutable once made and so shared by all
/// threads without a lock.
///
/// All metrics are in font units; vertical metrics come from the `hhea` table (what Core Text uses),
/// falling back to OS/2 typographic values, then to FreeType's own, when `hhea` has none.
package final class FontFace: Sendable {
    /// Unique per loaded face, for cache keys (a path could be reloaded after eviction).
    let id: Int
    /// The path the face was opened from.
    package let path: String
    /// Apple's SF Pro (a file under Apple's name, from a user's folder): its `trak` table is left out
    /// when shaping, since the system font's tracking is applied after shaping by SF's own table
    /// (``Font/systemTracking(forSize:)``), and HarfBuzz would add the table's 12-pt value at every size.
    let ignoresTrackingTable: Bool
    package let familyName: String
    let styleName: String
    package let unitsPerEm: Int
    /// Above the baseline, positive.
    let ascender: Int
    /// Below the baseline, positive.
    let descender: Int
    let lineGap: Int
    /// The same file opened by HarfBuzz (face 0, scale = units per em, so positions come out in font
    /// units, exact integers), with its OpenType functions (`hmtx`, `GSUB`, `GPOS`, `kern`). Immutable
    /// after `init` (`hb_font_make_immutable`), hence safe to share between threads.
    nonisolated(unsafe) private let shaper: OpaquePointer
    let glyphCount: Int
    /// The union of all glyphs' bounding boxes (`head` table), font units, y up: bounds ink for culling.
    let inkBounds: (xMin: Int, yMin: Int, xMax: Int, yMax: Int)
    private let handle: Mutex<Handle>
    /// The file FreeType and HarfBuzz both read.
    private let file: FontFileMapping
    /// The largest glyph mask rendered, in bytes; larger glyphs are filled as outlines instead.
    static let maxMaskBytes = 1 << 20

    private struct Handle {
        var library: FT_Library
        var face: FT_Face
    }

    private static let nextID = Atomic<Int>(1)

    /// Opens the font at `path` (face 0 of a collection).
    /// - Throws: ``TypesettingError`` naming `path`: `fileNotFound`, `unreadable` (permissions, a
    ///   directory), `invalidFont` (not a font, a bitmap-only font, no Unicode character map, ...).
    package init(path: String) throws(TypesettingError) {
        let file = try FontFileMapping(path: path)
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw TypesettingError(kind: .invalidFont, file: path, reason: "FreeType could not start")
        }
        var faceOut: FT_Face?
        let openError = FT_New_Memory_Face(library, file.base.assumingMemoryBound(to: FT_Byte.self), FT_Long(file.size), 0, &faceOut)
        guard openError == 0, let face = faceOut else {
            FT_Done_FreeType(library)
            throw TypesettingError(kind: .invalidFont, file: path, reason: FontFace.message(for: openError))
        }
        func fail(_ reason: String) -> TypesettingError {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            return TypesettingError(kind: .invalidFont, file: path, reason: reason)
        }
        let rec = face.pointee
        let upem = Int(rec.units_per_EM)
        guard rec.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else { throw fail("not a scalable (outline) font") }
        guard (16...16384).contains(upem) else { throw fail("units per em \(upem) outside 16...16384") }
        guard rec.num_glyphs > 0, rec.num_glyphs <= 65535 else { throw fail("glyph count \(rec.num_glyphs)") }
        guard FT_Select_Charmap(face, FT_ENCODING_UNICODE) == 0 else { throw fail("no Unicode character map") }
        // One font unit per pixel: unhinted outlines then come out in font units as 26.6 values, unrounded
        // (FreeType's advice over FT_LOAD_NO_SCALE, which rounds and mishandles "tricky" fonts).
        let sizeError = FT_Set_Char_Size(face, 0, FT_F26Dot6(upem * 64), 72, 72)
        guard sizeError == 0 else { throw fail("cannot set size: \(FontFace.message(for: sizeError))") }

        var ascender = Int(rec.ascender), descender = -Int(rec.descender), gap = max(0, Int(rec.height) - ascender - descender)
        // Advances come from `hmtx` (``advance(of:)``): a font without horizontal metrics is refused here,
        // where FreeType and HarfBuzz would each make up different ones.
        guard let hheaTable = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA) else { throw fail("no horizontal metrics (no hhea table)") }
        let hhea = hheaTable.assumingMemoryBound(to: TT_HoriHeader.self).pointee
        guard hhea.number_Of_HMetrics > 0 else { throw fail("no horizontal metrics (hhea lists no hmtx entries)") }
        if hhea.Ascender != 0 || hhea.Descender != 0 {
            ascender = Int(hhea.Ascender); descender = -Int(hhea.Descender); gap = max(0, Int(hhea.Line_Gap))
        } else if let os2raw = FT_Get_Sfnt_Table(face, FT_SFNT_OS2) {
            let os2 = os2raw.assumingMemoryBound(to: TT_OS2.self).pointee
            ascender = Int(os2.sTypoAscender); descender = -Int(os2.sTypoDescender); gap = max(0, Int(os2.sTypoLineGap))
        }
        guard ascender + descender > 0, ascender <= 4 * upem, descender <= 4 * upem, gap <= 4 * upem else {
            throw fail("unusable vertical metrics (ascender \(ascender), descender \(descender), line gap \(gap))")
        }

        let count = Int(rec.num_glyphs)

        self.id = FontFace.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        self.path = path
        ignoresTrackingTable = path.split(separator: "/").last?.hasPrefix("SF-Pro-") ?? false
        self.familyName = rec.family_name.map { String(cString: $0) } ?? ""
        self.styleName = rec.style_name.map { String(cString: $0) } ?? ""
        self.unitsPerEm = upem
        self.ascender = ascender
        self.descender = descender
        self.lineGap = gap
        guard let shaper = FontFace.makeShaper(file: file, unitsPerEm: upem, glyphCount: count) else {
            throw fail("HarfBuzz cannot open it")
        }
        self.shaper = shaper
        self.glyphCount = count
        self.inkBounds = (Int(rec.bbox.xMin), Int(rec.bbox.yMin), Int(rec.bbox.xMax), Int(rec.bbox.yMax))
        self.handle = Mutex(Handle(library: library, face: face))
        self.file = file
    }

    deinit {
        handle.withLock { h in
            FT_Done_Face(h.face)
            FT_Done_FreeType(h.library)
        }
        hb_font_destroy(shaper)
    }

    /// A HarfBuzz font for face 0 of the file, at one unit per font unit; nil when HarfBuzz reads a
    /// different glyph count than FreeType (then the two would not agree on glyph ids). Its blob keeps
    /// the mapping alive as long as HarfBuzz holds it.
    private static func makeShaper(file: FontFileMapping, unitsPerEm: Int, glyphCount: Int) -> OpaquePointer? {
        let retained = Unmanaged.passRetained(file).toOpaque()
        guard let blob = hb_blob_create_or_fail(file.base.assumingMemoryBound(to: CChar.self), UInt32(file.size), HB_MEMORY_MODE_READONLY,
                                                retained, { Unmanaged<FontFileMapping>.fromOpaque($0!).release() }) else {
            Unmanaged<FontFileMapping>.fromOpaque(retained).release()
            return nil
        }
        defer { hb_blob_destroy(blob) }
        guard let face = hb_face_create(blob, 0) else { return nil }
        defer { hb_face_destroy(face) }
        guard Int(hb_face_get_glyph_count(face)) == glyphCount, let font = hb_font_create(face) else { return nil }
        hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
        hb_font_make_immutable(font)
        return font
    }

    // MARK: Layout queries (font units)

    /// The glyph for `scalar`, 0 (`.notdef`) when the font has none: the font's Unicode character map as
    /// HarfBuzz reads it (the map shaping uses; an immutable HarfBuzz font answers from any thread
    /// without a lock). Copying the whole map into a dictionary when a face opened cost about 6 ms and
    /// 2 MB for each Noto Sans CJK face, before the first frame of any transition with Japanese text.
    package func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(shaper, scalar.value, &glyph) != 0, Int(glyph) < glyphCount else { return 0 }
        return glyph
    }

    /// The unhinted advance width of `glyph` in font units: HarfBuzz's reading of `hmtx`, the table
    /// shaping uses, one glyph at a time. (Copying every advance when a face opened cost 0.8 MB and
    /// touched the whole table for each Noto Sans CJK face, for the few dozen glyphs a transition draws.)
    package func advance(of glyph: UInt32) -> Int32 {
        guard Int(glyph) < glyphCount else { return 0 }
        return max(0, hb_font_get_glyph_h_advance(shaper, glyph))
    }

    /// One glyph HarfBuzz placed, in font units.
    struct ShapedGlyph {
        var id: UInt32
        /// The UTF-16 offset (in the whole text given to ``shape(_:range:rightToLeft:language:)``) of
        /// the first character the glyph draws; a ligature carries the offset of its first character.
        var cluster: Int
        /// How far the pen moves after the glyph (kerning included).
        var advance: Int32
        /// Where the glyph is drawn from the pen: right, and up.
        var xOffset: Int32
        var yOffset: Int32
    }

    /// Shapes `text[range]` (UTF-16) as one run in this font with HarfBuzz, the rest of `text` given as
    /// context (so Arabic letters join across a run boundary). Features are HarfBuzz's defaults for
    /// horizontal text, the ones Core Text applies by default: `kern`, `liga`, `calt`, `clig`, `ccmp`,
    /// `locl`, `mark`, `mkmk`, `rlig`, `curs` (and the script's own, e.g. Arabic `init`/`medi`/`fina`);
    /// `palt` and other optional features stay off. The script is guessed from the text; `language` is
    /// a BCP 47 tag (it picks `locl` forms). Glyphs come in visual order (left to right), so a
    /// right-to-left run's clusters decrease.
    func shape(_ text: UnsafeBufferPointer<UInt16>, range: Range<Int>, rightToLeft: Bool, language: String) -> [ShapedGlyph] {
        guard !range.isEmpty, let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_language(buffer, hb_language_from_string(language, -1))
        hb_buffer_guess_segment_properties(buffer)
        if ignoresTrackingTable {
            // 'trak' off for the whole run.
            let trak = UInt32(0x74) << 24 | UInt32(0x72) << 16 | UInt32(0x61) << 8 | UInt32(0x6B)
            var off = hb_feature_t(tag: trak, value: 0, start: 0, end: UInt32.max)
            hb_shape(shaper, buffer, &off, 1)
        } else {
            hb_shape(shaper, buffer, nil, 0)
        }
        guard hb_buffer_allocation_successful(buffer) != 0 else { return [] }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, nil) else { return [] }
        var out: [ShapedGlyph] = []
        out.reserveCapacity(Int(count))
        for k in 0..<Int(count) {
            let glyph = infos[k].codepoint
            out.append(ShapedGlyph(id: Int(glyph) < glyphCount ? glyph : 0, cluster: Int(infos[k].cluster),
                                   advance: positions[k].x_advance, xOffset: positions[k].x_offset, yOffset: positions[k].y_offset))
        }
        return out
    }

    // MARK: Glyph images

    /// Renders `glyph` unhinted at `scale` pixels per font unit, its origin moved right by `shift` pixels
    /// (a sub-pixel phase, 0 ≤ shift < 1), through `FT_Render_Glyph` as 8-bit gray coverage.
    ///
    /// The outline is scaled here in Double and rounded once to 26.6, not through FreeType's 16.16 matrix,
    /// so that small sizes keep their exact proportions. Returns nil when the glyph cannot be loaded or
    /// its mask would exceed ``maxMaskBytes`` (the caller then fills the outline as a path).
    package func renderMask(glyph: UInt32, scale: Double, shift: Double) -> GlyphMask? {
        handle.withLock { h -> GlyphMask? in
            guard FT_Load_Glyph(h.face, glyph, FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
                  let slot = h.face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return nil }
            let n = Int(slot.pointee.outline.n_points)
            if n == 0 { return GlyphMask.empty }
            guard let points = slot.pointee.outline.points else { return nil }
            // Loaded at one pixel per font unit, so points are font units in 26.6.
            for i in 0..<n {
                let x = (Double(points[i].x) * scale + shift * 64).rounded()
                let y = (Double(points[i].y) * scale).rounded()
                guard abs(x) < 1e8, abs(y) < 1e8 else { return nil }
                points[i].x = FT_Pos(x)
                points[i].y = FT_Pos(y)
            }
            var box = FT_BBox()
            FT_Outline_Get_CBox(&slot.pointee.outline, &box)
            let w = (Int(box.xMax) + 63) / 64 - Int(box.xMin) / 64 + 1, hgt = (Int(box.yMax) + 63) / 64 - Int(box.yMin) / 64 + 1
            guard w * hgt <= FontFace.maxMaskBytes else { return nil }
            guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
            let bitmap = slot.pointee.bitmap
            let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), width > 0, rows > 0, let buffer = bitmap.buffer else {
                return GlyphMask.empty
            }
            var bytes = [UInt8](repeating: 0, count: width * rows)
            bytes.withUnsafeMutableBufferPointer { out in
                for y in 0..<rows {
                    // A negative pitch means rows run bottom-up in memory.
                    let src = pitch >= 0 ? buffer + y * pitch : buffer + (rows - 1 - y) * (-pitch)
                    (out.baseAddress! + y * width).update(from: src, count: width)
                }
            }
            return GlyphMask(width: width, height: rows, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), bytes: bytes)
        }
    }

    /// The outline of `glyph` in font units, y up, through `FT_Outline_Decompose`; nil when it cannot be
    /// loaded. Empty for a glyph without contours (a space).
    func outline(of glyph: UInt32) -> GlyphOutline? {
        handle.withLock { h -> GlyphOutline? in
            guard FT_Load_Glyph(h.face, glyph, FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
                  let slot = h.face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return nil }
            var sink = OutlineSink()
            var funcs = FT_Outline_Funcs(
                move_to: { to, user in OutlineSink.append(.move(OutlineSink.point(to)), to: user) },
                line_to: { to, user in OutlineSink.append(.line(OutlineSink.point(to)), to: user) },
                conic_to: { control, to, user in
                    OutlineSink.append(.quad(OutlineSink.point(to), OutlineSink.point(control)), to: user)
                },
                cubic_to: { c1, c2, to, user in
                    OutlineSink.append(.cubic(OutlineSink.point(to), OutlineSink.point(c1), OutlineSink.point(c2)), to: user)
                },
                shift: 0, delta: 0)
            let error = withUnsafeMutablePointer(to: &sink) { p in
                FT_Outline_Decompose(&slot.pointee.outline, &funcs, UnsafeMutableRawPointer(p))
            }
            return error == 0 ? GlyphOutline(elements: sink.elements) : nil
        }
    }

    // MARK: Errors

    /// FreeType's message for an error code, e.g. "unknown file format".
    static func message(for error: FT_Error) -> String {
        guard let text = cft_error_message(Int32(error)) else { return "FreeType error \(error)" }
        return String(cString: text).lowercased()
    }
}

/// An 8-bit coverage mask of one glyph at one size and sub-pixel phase. `left` and `top` place its
/// top-left pixel relative to the pen position on the baseline (`top` counts upwards), as FreeType's
/// `bitmap_left` / `bitmap_top`.
package final class GlyphMask: Sendable {
    let width: Int
    let height: Int
    let left: Int
    let top: Int
    package let bytes: [UInt8]

    init(width: Int, height: Int, left: Int, top: Int, bytes: [UInt8]) {
        self.width = width; self.height = height; self.left = left; self.top = top; self.bytes = bytes
    }

    static let empty = GlyphMask(width: 0, height: 0, left: 0, top: 0, bytes: [])

    /// Memory charged to the glyph cache: the bytes plus a fixed allowance for the object and its key.
    var cost: Int { bytes.count + 96 }
}

/// A glyph outline in font units, y up, as FreeType decomposes it (conics are TrueType quadratics).
struct GlyphOutline: Sendable {
    enum Element: Sendable {
        case move(SIMD2<Double>)
        case line(SIMD2<Double>)
        case quad(SIMD2<Double>, SIMD2<Double>)             // to, control
        case cubic(SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)  // to, control 1, control 2
    }
    var elements: [Element]
}

/// Collects `FT_Outline_Decompose` callbacks; reached through the `user` pointer.
private struct OutlineSink {
    var elements: [GlyphOutline.Element] = []

    /// Appends to the sink behind `user`; returns 0, FreeType's "go on".
    static func append(_ element: GlyphOutline.Element, to user: UnsafeMutableRawPointer?) -> Int32 {
        user?.assumingMemoryBound(to: OutlineSink.self).pointee.elements.append(element)
        return 0
    }

    /// A 26.6 vector (one pixel per font unit at load) as font units.
    static func point(_ v: UnsafePointer<FT_Vector>?) -> SIMD2<Double> {
        guard let v else { return .zero }
        return SIMD2(Double(v.pointee.x) / 64, Double(v.pointee.y) / 64)
    }
}

/// A font file mapped read-only, once: FreeType (`FT_New_Memory_Face`) and HarfBuzz (a blob over the same
/// bytes) read the same pages. Each opening the file itself mapped it twice, so every page both touched
/// (a CJK collection's tables, several MiB) counted twice in the process's resident memory.
final class FontFileMapping: @unchecked Sendable {
    let base: UnsafeRawPointer
    let size: Int

    /// Maps `path`, telling a missing file from an unreadable one (FreeType reports both as "cannot open").
    /// - Throws: ``TypesettingError`` naming `path`: `fileNotFound`, `unreadable`, or `invalidFont` for an
    ///   empty file or one over 2 GiB (HarfBuzz's limit).
    init(path: String) throws(TypesettingError) {
        guard !path.isEmpty else { throw TypesettingError(kind: .fileNotFound, file: path, reason: "empty path") }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // (a FIFO must not block the open)
        if fd < 0 {
            let code = errno
            throw TypesettingError(kind: code == ENOENT || code == ENOTDIR ? .fileNotFound : .unreadable,
                                   file: path, reason: String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw TypesettingError(kind: .unreadable, file: path, reason: String(cString: strerror(errno))) }
        if info.st_mode & S_IFMT == S_IFDIR { throw TypesettingError(kind: .unreadable, file: path, reason: "is a directory") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw TypesettingError(kind: .unreadable, file: path, reason: "not a regular file") }
        if info.st_size == 0 { throw TypesettingError(kind: .invalidFont, file: path, reason: "empty file") }
        guard info.st_size <= Int(Int32.max) else {
            throw TypesettingError(kind: .invalidFont, file: path, reason: "\(info.st_size) bytes: larger than 2 GiB")
        }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw TypesettingError(kind: .unreadable, file: path, reason: String(cString: strerror(errno)))
        }
        self.base = UnsafeRawPointer(base)
        self.size = size
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }
}
