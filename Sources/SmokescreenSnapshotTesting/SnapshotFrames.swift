import Foundation
import PNGIO
import RasterCore

/// What the strategies snapshot and compare: one image (`.image(scale:)`) or every frame of a transition
/// (`.frames(fps:scale:)`), in order, all of the same pixel size.
///
/// On disk it is one PNG file, the reference swift-snapshot-testing keeps at
/// `__Snapshots__/<TestFile>/<testName>.<n>.png`: the frames laid out left to right, top to bottom, in a
/// grid of ``Layout/columns`` columns (empty cells of the last row transparent), and the layout in a PNG
/// `tEXt` chunk with the keyword ``Layout/keyword``, e.g. `frames=16 columns=4 width=320 height=480 scale=1`
/// (frame width and height in pixels, scale in pixels per point). A PNG without that chunk (an image drawn
/// elsewhere) is read as one frame.
public struct SnapshotFrames: Sendable {
    /// The frames, in order; empty when ``problem`` says why there are none.
    public var frames: [Bitmap]
    /// Why there are no frames: the reference file could not be read. `nil` otherwise.
    public var problem: String?

    /// Frames to store or compare; all must have the same pixel size and scale.
    public init(frames: [Bitmap]) {
        self.frames = frames
        self.problem = nil
    }

    /// No frames, and why (a reference that could not be read).
    public init(problem: String) {
        self.frames = []
        self.problem = problem
    }

    /// How frames are placed in the one PNG file.
    public struct Layout: Equatable, Sendable {
        /// The `tEXt` keyword the layout is stored under.
        public static let keyword = "Smokescreen frames"
        /// Frames in the file.
        public var frames: Int
        /// Frames per row of the grid.
        public var columns: Int
        /// One frame's size in pixels.
        public var width: Int, height: Int
        /// Pixels per point of the frames.
        public var scale: Double

        /// Rows of the grid.
        public var rows: Int { frames == 0 ? 0 : (frames + columns - 1) / columns }

        /// The layout of `frames` frames of `width × height` pixels: about as many rows as columns of
        /// pixels (so the file stays well under ``Bitmap/maxDimension`` on each side), never more
        /// columns than frames.
        public init(frames: Int, width: Int, height: Int, scale: Double) {
            self.frames = frames
            self.width = width
            self.height = height
            self.scale = scale
            let square = (Double(frames) * Double(height) / Double(max(1, width))).squareRoot().rounded(.up)
            columns = max(1, min(frames, Int(square)))
        }

        /// A layout as read from a file.
        public init(frames: Int, columns: Int, width: Int, height: Int, scale: Double) {
            self.frames = frames
            self.columns = columns
            self.width = width
            self.height = height
            self.scale = scale
        }

        /// `frames=16 columns=4 width=320 height=480 scale=1`.
        public var text: String {
            let s = scale == scale.rounded() && abs(scale) < 1e6 ? String(Int(scale)) : String(scale)
            return "frames=\(frames) columns=\(columns) width=\(width) height=\(height) scale=\(s)"
        }

        /// Parses ``text``; `nil` for anything else.
        public init?(text: String) {
            var values: [String: String] = [:]
            for field in text.split(separator: " ") {
                let pair = field.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { return nil }
                values[String(pair[0])] = String(pair[1])
            }
            guard values.count == 5, let frames = values["frames"].flatMap(Int.init), let columns = values["columns"].flatMap(Int.init),
                  let width = values["width"].flatMap(Int.init), let height = values["height"].flatMap(Int.init),
                  let scale = values["scale"].flatMap(Double.init), scale.isFinite, scale > 0,
                  frames > 0, columns > 0, width > 0, height > 0
            else { return nil }
            self.init(frames: frames, columns: columns, width: width, height: height, scale: scale)
        }
    }
}

extension SnapshotFrames {
    /// The PNG file of the frames (see the type's description for the layout), compressed with
    /// `PNGCompression/small` as SmokescreenTesting's goldens are.
    /// - Throws: ``SnapshotFramesError`` when there are no frames, their sizes or scales differ, or the
    ///   grid would be larger than a bitmap can be.
    public func pngData() throws(SnapshotFramesError) -> [UInt8] {
        if let problem { throw SnapshotFramesError(problem) }
        guard let first = frames.first else { throw SnapshotFramesError("no frames to store") }
        for (index, frame) in frames.enumerated() where frame.width != first.width || frame.height != first.height || frame.scale != first.scale {
            throw SnapshotFramesError("frame \(index) is \(frame.width)x\(frame.height) px @\(frame.scale)x, frame 0 is "
                + "\(first.width)x\(first.height) px @\(first.scale)x: every frame must have the same size")
        }
        let layout = Layout(frames: frames.count, width: first.width, height: first.height, scale: first.scale)
        var grid: Bitmap
        do {
            grid = try Bitmap(width: layout.columns * layout.width, height: layout.rows * layout.height, scale: first.scale)
        } catch {
            throw SnapshotFramesError("\(frames.count) frames of \(first.width)x\(first.height) px do not fit in one PNG "
                + "(\(error)): lower the frame rate or the scale")
        }
        for (index, frame) in frames.enumerated() {
            grid.copy(from: frame, to: ((index % layout.columns) * layout.width, (index / layout.columns) * layout.height))
        }
        let png: [UInt8]
        do { png = try PNGCodec.encode(grid, compression: .small) } catch { throw SnapshotFramesError("cannot encode the PNG: \(error)") }
        return PNGTextChunk.inserting(keyword: Layout.keyword, text: layout.text, into: png)
    }

    /// The frames of a PNG file written by ``pngData()`` (or any PNG, read as one frame at `scale`).
    /// Never throws: a file that cannot be read gives frames with a ``problem``.
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - name: the file, for messages.
    ///   - scale: pixels per point of a PNG without a layout chunk; default 1.
    public init(png bytes: [UInt8], name: String = PNGCodec.memoryName, scale: Double = 1) {
        let text = PNGTextChunk.text(forKeyword: Layout.keyword, in: bytes)
        let layout: Layout?
        if let text {
            guard let parsed = Layout(text: text) else {
                self.init(problem: "\(name): its '\(Layout.keyword)' chunk '\(text)' is not 'frames=N columns=N width=N height=N scale=N'")
                return
            }
            layout = parsed
        } else {
            layout = nil
        }
        let grid: Bitmap
        do { grid = try PNGCodec.decode(bytes, name: name, scale: layout?.scale ?? scale) } catch {
            self.init(problem: "\(error)")
            return
        }
        guard let layout else {
            self.init(frames: [grid])
            return
        }
        guard layout.columns <= layout.frames, layout.columns * layout.width <= grid.width, layout.rows * layout.height <= grid.height else {
            self.init(problem: "\(name): its layout '\(text ?? "")' does not fit the \(grid.width)x\(grid.height) px image")
            return
        }
        var frames: [Bitmap] = []
        frames.reserveCapacity(layout.frames)
        for index in 0..<layout.frames {
            let rect = PixelRect(x: (index % layout.columns) * layout.width, y: (index / layout.columns) * layout.height,
                                 width: layout.width, height: layout.height)
            do { frames.append(try grid.cropped(to: rect)) } catch {
                self.init(problem: "\(name): frame \(index) at \(rect): \(error)")
                return
            }
        }
        self.init(frames: frames)
    }
}

/// Frames that cannot be stored, or a snapshot that could not be taken: what went wrong, for the failure message.
public struct SnapshotFramesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var reason: String
    /// An error saying `reason`.
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// The one PNG chunk the strategies add: a `tEXt` chunk (keyword, NUL, Latin-1 text) right after `IHDR`.
/// libpng, which PNGIO decodes with, skips it; every PNG viewer shows the image as usual.
package enum PNGTextChunk {
    /// `png` with a `tEXt` chunk after its `IHDR` chunk (PNG's first chunk, 13 bytes of data).
    package static func inserting(keyword: String, text: String, into png: [UInt8]) -> [UInt8] {
        let afterHeader = 8 + 4 + 4 + 13 + 4
        guard png.count >= afterHeader, Array(png[12..<16]) == Array("IHDR".utf8) else { return png }
        let data = Array(keyword.utf8) + [0] + Array(text.utf8)
        let body = Array("tEXt".utf8) + data
        var chunk = bigEndian(UInt32(data.count)) + body
        chunk += bigEndian(crc32(body))
        return Array(png[..<afterHeader]) + chunk + Array(png[afterHeader...])
    }

    /// The text of the first `tEXt` chunk with `keyword` before the image data, or `nil`.
    static func text(forKeyword keyword: String, in png: [UInt8]) -> String? {
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length + 4 <= png.count, type != "IDAT", type != "IEND" else { return nil }
            if type == "tEXt" {
                let data = png[start..<(start + length)]
                if let nul = data.firstIndex(of: 0), String(decoding: data[..<nul], as: UTF8.self) == keyword {
                    return String(decoding: data[(nul + 1)...], as: UTF8.self)
                }
            }
            offset = start + length + 4
        }
        return nil
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// PNG's CRC-32 (ISO 3309, reflected polynomial 0xEDB88320) over the chunk type and data.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
