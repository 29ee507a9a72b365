import BoundedInput
import FrameStore
import Foundation

/// The frames on one side of a comparison: one PNG file, a folder of `frame_NNNN.png` files, or the frames
/// listed in a `manifest.json`. Nothing is decoded here; frames are read when compared.
public struct StoredFrames: Sendable, Hashable {
    /// Where the frames come from.
    public enum Source: String, Sendable, Hashable {
        /// One PNG file.
        case file
        /// A folder: its files named `frame_` + digits + `.png`, by frame number.
        case folder
        /// A `manifest.json`: the `file` of each entry of its `frames` array, relative to its folder.
        case manifest
    }

    /// One frame: its name (the file name, or the manifest's `file` string) and where it is.
    public struct Frame: Sendable, Hashable {
        /// The name frames are matched by across the two sides, e.g. `frame_0003.png`.
        public var name: String
        /// The file's path.
        public var path: String

        /// A frame named `name` at `path`.
        public init(name: String, path: String) { self.name = name; self.path = path }
    }

    /// The path that was opened.
    public var path: String
    /// A file, a folder or a manifest.
    public var source: Source
    /// The frames in order.
    public var frames: [Frame]

    /// Frames found at `path`.
    public init(path: String, source: Source, frames: [Frame]) {
        self.path = path; self.source = source; self.frames = frames
    }

    /// The largest manifest read, in bytes: `Limits/manifestBytes`.
    public static var maxManifestBytes: Int { Limits.manifestBytes }

    /// Opens `path`: a folder lists its `frame_NNNN.png` files (a `manifest.json` in it is not read); a
    /// file ending in `.json` is a manifest; any other file is one PNG frame.
    /// - Throws: ``FrameInputError`` when the path does not exist or cannot be listed, or a manifest is not
    ///   valid (see ``manifest(at:)``).
    public static func open(_ path: String) throws(FrameInputError) -> StoredFrames {
        guard !path.isEmpty else { throw FrameInputError(path: path, reason: "empty path") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FrameInputError(path: path, reason: "no such file or folder", isMissing: true)
        }
        if isDirectory.boolValue { return try folder(at: path) }
        if path.lowercased().hasSuffix(".json") { return try manifest(at: path) }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return StoredFrames(path: path, source: .file, frames: [Frame(name: name, path: path)])
    }

    /// The `frame_NNNN.png` files of a folder (any number of digits), ordered by frame number.
    public static func folder(at path: String) throws(FrameInputError) -> StoredFrames {
        let names: [String]
        do throws(POSIXFailure) { names = try POSIXFiles.list(path) } catch {
            throw FrameInputError(path: path, reason: "cannot list the folder: \(error.reason)")
        }
        let numbered = names.compactMap { name -> (Int, String)? in
            guard let number = frameNumber(name) else { return nil }
            return (number, name)
        }
        let sorted = numbered.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        let base = path.hasSuffix("/") ? path : path + "/"
        return StoredFrames(path: path, source: .folder, frames: sorted.map { Frame(name: $0.1, path: base + $0.1) })
    }

    /// The number in `frame_<digits>.png`, or `nil` for any other name. Numbers too large for `Int` sort last.
    static func frameNumber(_ name: String) -> Int? { FrameFileName.index(of: name) }

    /// The frames listed in a Smokescreen `manifest.json`. Only `frames[].file` is read; other keys
    /// (`name`, `pointSize`, `scale`, `fps`, `frameCount`, `time`, `sha256`, `durations`) are ignored.
    /// - Throws: ``FrameInputError`` when the file is unreadable or over ``maxManifestBytes``, is not JSON,
    ///   has no `frames` array, or an entry's `file` is not a string, is empty, absolute, has a `..` or
    ///   empty component or a NUL, or is listed twice.
    public static func manifest(at path: String) throws(FrameInputError) -> StoredFrames {
        let bytes: [UInt8]
        do throws(POSIXFailure) { bytes = try POSIXFiles.read(path, limit: maxManifestBytes) } catch {
            throw FrameInputError(path: path, reason: error.reason)
        }
        // A pull parser keeps only the file names: other keys are skipped without building anything,
        // so memory follows the frame count (at most Limits.framesPerRender), whatever else the file holds.
        var files: [(index: Int, file: String)] = []
        var sawFrames = false
        do throws(DocumentError) {
            var reader = JSONReader(bytes, source: path)
            try reader.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
                guard key == "frames" else { return try r.skipValue() }
                sawFrames = true
                try r.readArray(maxCount: Limits.framesPerRender) { (r: inout JSONReader, index: Int) throws(DocumentError) in
                    var file: String?
                    try r.readObject { (r: inout JSONReader, key: String) throws(DocumentError) in
                        if key == "file" { file = try r.readString() } else { try r.skipValue() }
                    }
                    guard let file else { throw r.error("missing \"file\" (a string)") }
                    files.append((index, file))
                }
            }
            try reader.finish()
        } catch {
            throw FrameInputError(path: path, reason: error.description.hasPrefix(path + ":") ? String(error.description.dropFirst(path.count + 1)) : error.description)
        }
        guard sawFrames else { throw FrameInputError(path: path, reason: "no \"frames\" array at the top level") }
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let base = folder.isEmpty ? (path.hasPrefix("/") ? "/" : "") : folder + "/"
        var frames: [Frame] = []
        var seen = Set<String>()
        for (index, file) in files {
            let components = file.split(separator: "/", omittingEmptySubsequences: false)
            // A NUL would cut the path short at the C boundary and name another file.
            guard !file.isEmpty, !file.hasPrefix("/"), !components.contains(".."), !components.contains(""), !file.contains("\0") else {
                throw FrameInputError(path: path, reason: "frames[\(index)].file \"\(file)\" must be a relative path inside the manifest's folder")
            }
            guard seen.insert(file).inserted else {
                throw FrameInputError(path: path, reason: "frames[\(index)].file \"\(file)\" is listed twice")
            }
            frames.append(Frame(name: file, path: base + file))
        }
        return StoredFrames(path: path, source: .manifest, frames: frames)
    }
}

/// An input that cannot be opened as frames: a missing path, an unlistable folder, a bad manifest.
public struct FrameInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path given.
    public var path: String
    /// Why, e.g. `no such file or folder`.
    public var reason: String

    /// Whether the path does not exist (exit 66) rather than holding unusable data (65).
    public var isMissing: Bool

    /// An error about `path`.
    public init(path: String, reason: String, isMissing: Bool = false) { self.path = path; self.reason = reason; self.isMissing = isMissing }

    public var description: String { "\(path): \(reason)" }
}
