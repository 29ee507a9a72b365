import Foundation

/// `manifest.json`, written beside the frames of a render: what was rendered, with which settings, and
/// a SHA-256 of each frame file, so another tool (or a later run) can check and compare the frames.
public struct Manifest: Codable, Equatable, Sendable {
    public struct Frame: Codable, Equatable, Sendable {
        /// File name relative to the manifest, `frame_0000.png`…
        public var file: String
        /// Seconds from the start of the animation.
        public var time: Double
        /// Lowercase hex SHA-256 of the file; null for a frame no run has written yet (a partial render).
        public var sha256: String?

        public init(file: String, time: Double, sha256: String?) {
            self.file = file
            self.time = time
            self.sha256 = sha256
        }

        // Written out as null rather than left out, as the README promises.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(file, forKey: .file)
            try c.encode(time, forKey: .time)
            try c.encode(sha256, forKey: .sha256)
        }
    }

    /// The transition's name.
    public var name: String
    /// Canvas size in points, `[width, height]`.
    public var pointSize: [Double]
    /// Pixels per point.
    public var scale: Double
    public var fps: Double
    public var frameCount: Int
    public var frames: [Frame]
    /// Every duration the transition used, by name (seconds).
    public var durations: [String: Double]
    /// A digest of the render's other inputs (durations plist, assets); nil when unknown.
    public var fingerprint: String?

    public static let fileName = "manifest.json"

    /// The file name of frame `index`: four digits at least, so `frame_%04d.png` patterns work.
    public static func frameFileName(_ index: Int) -> String {
        let digits = String(index)
        return "frame_" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }

    /// Whether `other` describes the same render (so its digests can be kept for frames not rewritten).
    func describesSameRender(as other: Manifest) -> Bool {
        name == other.name && pointSize == other.pointSize && scale == other.scale && fps == other.fps
            && frameCount == other.frameCount && durations == other.durations && fingerprint == other.fingerprint
            && frames.map(\.file) == other.frames.map(\.file) && frames.map(\.time) == other.frames.map(\.time)
    }

    /// Stable, readable JSON: sorted keys, pretty printed.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }

    /// Reads a manifest; nil when the file does not exist. Throws when it exists but is not a manifest.
    public static func read(from path: String) throws -> Manifest? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw RenderError.io(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
        do { return try JSONDecoder().decode(Manifest.self, from: data) } catch {
            throw RenderError.badInput(path: path, reason: "not a Smokescreen manifest: \(error)")
        }
    }
}

/// What went wrong in a render, with the file or key path, for the CLI's exit codes.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Input data that cannot be used (exit 65): a plist, manifest or asset.
    case badInput(path: String, reason: String)
    /// Reading or writing files failed (exit 74).
    case io(path: String, reason: String)
    /// Rendering itself failed (exit 1): a frame, a snapshot, an animation.
    case failed(what: String, reason: String)

    public var description: String {
        switch self {
        case let .badInput(path, reason): "\(path): \(reason)"
        case let .io(path, reason): "\(path): \(reason)"
        case let .failed(what, reason): "\(what): \(reason)"
        }
    }

    /// The process exit code DESIGN gives this error.
    public var exitCode: Int32 {
        switch self {
        case .badInput: 65
        case .io: 74
        case .failed: 1
        }
    }
}
