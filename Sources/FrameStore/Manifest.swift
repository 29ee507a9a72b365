import BoundedInput
import Foundation

/// `manifest.json`, written beside the frames of a render: what was rendered, with which settings, and
/// a SHA-256 of each frame file, so another tool (or a later run) can check and compare the frames.
///
/// The manifest is also how Smokescreen knows which files in a folder are its own: a `manifest.json`
/// whose `generator` starts with `smokescreen ` lists them. A manifest without it is the user's file.
public struct Manifest: Codable, Equatable, Sendable {
    /// One frame file.
    public struct Frame: Codable, Equatable, Sendable {
        /// File name relative to the manifest, `frame_0000.png`…
        public var file: String
        /// Seconds from the start of the animation.
        public var time: Double
        /// Lowercase hex SHA-256 of the file; null for a frame no finished run has written: not rendered
        /// yet (a partial render), or being written (a render under way, or one that was interrupted).
        public var sha256: String?

        /// A frame entry; `sha256` nil for a frame no finished run wrote.
        public init(file: String, time: Double, sha256: String?) {
            self.file = file
            self.time = time
            self.sha256 = sha256
        }

        // Written out as null rather than left out, as docs/rendering.md promises.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(file, forKey: .file)
            try c.encode(time, forKey: .time)
            try c.encode(sha256, forKey: .sha256)
        }
    }

    /// The tool and version that wrote the manifest, `smokescreen 0.5.0` (``SmokescreenVersion/generator``).
    public var generator: String
    /// The transition's name.
    public var name: String
    /// Canvas size in points, `[width, height]`.
    public var pointSize: [Double]
    /// Pixels per point.
    public var scale: Double
    /// Frames per second.
    public var fps: Double
    /// The PNG compression preset the frames were written with (`fast`, `portable`, `small`, …).
    public var compression: String
    /// What deflated the frames' image data, with its version and level (`isa-l 2.30.0 level 1`,
    /// `zlib 1.2.13 level 1`); nil in manifests of versions that did not record it. ISA-L's bytes may
    /// differ between processors (the pixels do not); zlib's are the same everywhere.
    public var compressor: String?
    /// The number of frames of the render (all of them, written or not).
    public var frameCount: Int
    /// One per frame, in order.
    public var frames: [Frame]
    /// Every duration the transition used, by name (seconds).
    public var durations: [String: Double]
    /// A digest of the render's other inputs (durations plist, assets); nil when unknown.
    public var fingerprint: String?

    /// `manifest.json`.
    public static let fileName = "manifest.json"

    /// A manifest; `generator` defaults to this build's, `frameCount` is `frames.count`.
    public init(generator: String = SmokescreenVersion.generator, name: String, pointSize: [Double], scale: Double, fps: Double,
                compression: String, compressor: String? = nil, frames: [Frame], durations: [String: Double], fingerprint: String?) {
        self.generator = generator
        self.name = name
        self.pointSize = pointSize
        self.scale = scale
        self.fps = fps
        self.compression = compression
        self.compressor = compressor
        self.frameCount = frames.count
        self.frames = frames
        self.durations = durations
        self.fingerprint = fingerprint
    }

    /// Whether `other` describes the same render: every setting that changes a byte of a frame file is
    /// equal (the tool's version, name, size, scale, frame rate, compression and compressor, durations, input
    /// fingerprint and frame times), so its digests can be kept for frames not rewritten.
    public func describesSameRender(as other: Manifest) -> Bool {
        generator == other.generator && name == other.name && pointSize == other.pointSize && scale == other.scale
            && fps == other.fps && compression == other.compression && compressor == other.compressor
            && frameCount == other.frameCount
            && durations == other.durations && fingerprint == other.fingerprint
            && frames.map(\.file) == other.frames.map(\.file) && frames.map(\.time) == other.frames.map(\.time)
    }

    /// What differs between `other` (an earlier render) and this one, in words (`scale 2 → 1`, `name a → b`,
    /// …); empty when ``describesSameRender(as:)``.
    public func differences(from other: Manifest) -> [String] {
        var out: [String] = []
        func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        if name != other.name { out.append("name \(other.name) → \(name)") }
        if scale != other.scale { out.append("scale \(number(other.scale)) → \(number(scale))") }
        if fps != other.fps { out.append("fps \(number(other.fps)) → \(number(fps))") }
        if pointSize != other.pointSize { out.append("size \(other.pointSize.map(number)) → \(pointSize.map(number)) pt") }
        if compression != other.compression { out.append("compression \(other.compression) → \(compression)") }
        if frameCount != other.frameCount { out.append("\(other.frameCount) → \(frameCount) frames") }
        if durations != other.durations { out.append("durations") }
        if fingerprint != other.fingerprint { out.append("input files or traits (--appearance, --text-size, --system-fonts)") }
        if generator != other.generator { out.append("\(other.generator) → \(generator)") }
        if out.isEmpty, !describesSameRender(as: other) { out.append("frame times") }
        return out
    }

    /// Whether a manifest with this generator was written by Smokescreen.
    public static func isSmokescreenGenerator(_ generator: String) -> Bool { generator.hasPrefix("smokescreen ") }

    /// Stable, readable JSON: sorted keys, pretty printed.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }

    /// Reads the manifest at `path`; nil when there is no file there.
    /// - Throws: `InputFileError` when it is not a readable regular file of at most
    ///   `Limits/manifestBytes`, `DocumentError` when it is not a Smokescreen manifest.
    public static func read(from path: String) throws -> Manifest? {
        let bytes: [UInt8]
        do { bytes = try InputFile.read(path, limit: Limits.manifestBytes, what: "manifest") } catch {
            if error.kind == .notFound { return nil }
            throw error
        }
        return try parse(bytes, path: path)
    }

    /// The largest `scale` read: 16 pixels per point (a render writes 1, 2 or 3).
    public static let maxScale = 16.0

    static let keys = ["generator", "name", "pointSize", "scale", "fps", "compression", "compressor", "frameCount", "frames", "durations", "fingerprint"]

    /// Parses a manifest with a pull parser that keeps only the manifest's own values, so memory stays
    /// proportional to the frames kept (at most `Limits/framesPerRender`), whatever the input. Every
    /// key is checked; unknown keys, a frame count that disagrees with `frames`, a frame file that is not a
    /// plain frame name are errors naming the key path and line:column.
    public static func parse(_ bytes: [UInt8], path: String) throws(DocumentError) -> Manifest {
        var reader = JSONReader(bytes, source: path)
        var generator: String?, name: String?, pointSize: [Double]?, scale: Double?, fps: Double?, compression: String?
        var compressor: String?
        var frameCount: Int?, frames: [Frame]?, durations: [String: Double]?, fingerprint: String?
        try reader.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "generator": generator = try r.readString()
            case "name": name = try r.readString()
            case "pointSize":
                var size: [Double] = []
                try r.readArray(maxCount: 2) { (r: inout JSONReader, _: Int) throws(DocumentError) in size.append(try r.readNumber()) }
                guard size.count == 2, size.allSatisfy({ $0 > 0 && $0 <= Double(Limits.bitmapMaxSide) }) else {
                    throw r.error("must be [width, height] in points, both in 0 < v ≤ \(Limits.bitmapMaxSide)")
                }
                pointSize = size
            case "scale":
                let value = try positive(&r)
                guard value <= Self.maxScale else { throw r.error("must be in 0 < scale ≤ \(Int(Self.maxScale)), got \(value)") }
                scale = value
            case "fps":
                let value = try positive(&r)
                guard value >= Limits.minFPS, value <= Limits.maxFPS else { throw r.error("must be in \(Limits.fpsRange), got \(value)") }
                fps = value
            case "compression": compression = try r.readString()
            case "compressor": compressor = try r.readNull() ? nil : try r.readString()
            case "frameCount": frameCount = try r.readInteger(in: 0...Limits.framesPerRender)
            case "frames":
                var list: [Frame] = []
                try r.readArray(maxCount: Limits.framesPerRender) { (r: inout JSONReader, index: Int) throws(DocumentError) in
                    list.append(try readFrame(&r, index: index))
                }
                frames = list
            case "durations":
                var values: [String: Double] = [:]
                try r.readObject { (r: inout JSONReader, name: String) throws(DocumentError) in
                    guard values.count < 1000 else { throw r.error("more than 1000 durations") }
                    values[name] = try r.readNumber()
                }
                durations = values
            case "fingerprint": fingerprint = try r.readNull() ? nil : try r.readString()
            default: throw r.unknownKey(key, known: keys)
            }
        }
        try reader.finish()
        func missing(_ key: String) -> DocumentError {
            DocumentError(source: path, position: nil, keyPath: KeyPath([.key(key)]), reason: "missing")
        }
        guard let generator else { throw missing("generator") }
        guard let name else { throw missing("name") }
        guard let pointSize else { throw missing("pointSize") }
        guard let scale else { throw missing("scale") }
        guard let fps else { throw missing("fps") }
        guard let compression else { throw missing("compression") }
        guard let frames else { throw missing("frames") }
        guard let durations else { throw missing("durations") }
        // Frame times: 0 up to the longest transition plus the most hold frames, each one frame interval
        // (what a render writes); nothing a preview's delays or a comparison's labels cannot convert.
        let latest = Limits.maxSeconds + Double(Limits.maxHoldFrames) / fps
        if let bad = frames.firstIndex(where: { !($0.time >= 0 && $0.time <= latest) }) {
            throw DocumentError(source: path, position: nil, keyPath: KeyPath([.key("frames"), .index(bad), .key("time")]),
                                reason: "must be in 0…\(latest) s (the longest transition, \(Int(Limits.maxSeconds)) s, and \(Limits.maxHoldFrames) hold frames at \(fps) fps), got \(frames[bad].time)")
        }
        if pointSize[0] * scale > Double(Limits.bitmapMaxSide) || pointSize[1] * scale > Double(Limits.bitmapMaxSide)
            || pointSize[0] * scale * pointSize[1] * scale > Double(Limits.bitmapMaxPixels) {
            throw DocumentError(source: path, position: nil, keyPath: KeyPath([.key("pointSize")]),
                                reason: "\(pointSize[0])x\(pointSize[1]) pt at @\(scale)x is over the bitmap limits (\(Limits.bitmapMaxSide) px a side, \(Limits.bitmapMaxPixels) pixels)")
        }
        guard frameCount == nil || frameCount == frames.count else {
            throw DocumentError(source: path, position: nil, keyPath: KeyPath([.key("frameCount")]),
                                reason: "is \(frameCount ?? 0) but frames lists \(frames.count)")
        }
        return Manifest(generator: generator, name: name, pointSize: pointSize, scale: scale, fps: fps, compression: compression,
                        compressor: compressor, frames: frames, durations: durations, fingerprint: fingerprint)
    }

    private static func positive(_ r: inout JSONReader) throws(DocumentError) -> Double {
        let value = try r.readNumber()
        guard value > 0 else { throw r.error("must be > 0, got \(value)") }
        return value
    }

    private static func readFrame(_ r: inout JSONReader, index: Int) throws(DocumentError) -> Frame {
        var file: String?, time: Double?, digest: String??
        try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
            switch key {
            case "file":
                let name = try r.readString()
                guard FrameFileName.index(of: name) != nil else { throw r.error("'\(name.prefix(80))' is not a frame file name (frame_NNNN.png)") }
                file = name
            case "time": time = try r.readNumber()
            case "sha256":
                if try r.readNull() { digest = .some(nil) } else {
                    let hex = try r.readString(maxBytes: 64)
                    guard hex.utf8.count == 64, hex.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
                        throw r.error("must be 64 lowercase hex digits or null")
                    }
                    digest = .some(hex)
                }
            default: throw r.unknownKey(key, known: ["file", "time", "sha256"])
            }
        }
        guard let file, let time, let digest else {
            throw r.error("frames[\(index)] needs file, time and sha256")
        }
        return Frame(file: file, time: time, sha256: digest)
    }
}
