import ArgumentParser
import BoundedInput
import Choreography
import Foundation
import FrameStore
import PNGIO
import SmokescreenScenes
import TransitionCompositor

/// `render --all`: every built-in and every scene file of a folder, each into `<out>/<name>/`, or the
/// part of them one machine of a batch job renders (`--shard K/N` or `auto`), with `catalogue.json`
/// beside them saying what the whole catalogue is and which part this is, for `smokescreen merge`.
public struct CatalogueRender {
    /// One transition of the catalogue.
    public struct Item {
        /// Its name (its folder's name).
        public var name: String
        /// `built-in` or the scene file it comes from.
        public var source: String
        /// Loads it (a scene file is read again; its errors are the item's).
        public var load: () throws -> any Transition
    }

    /// `catalogue.json`: the settings, the whole catalogue with each transition's frames, cost and part,
    /// and which part this folder holds. Two folders of one catalogue render differ only in `part` and
    /// in which transitions they hold.
    public struct Record: Codable, Equatable, Sendable {
        public struct Entry: Codable, Equatable, Sendable {
            public var name: String
            public var source: String
            /// Frames of the render (0 when it failed).
            public var frames: Int
            /// frames × pixels per frame: what the parts are balanced by.
            public var cost: Double
            /// The part (1-based) that renders it.
            public var part: Int
            /// Why it failed, or nil.
            public var error: String?
        }
        public var generator: String
        public var scale: Int
        /// Frames per second asked for (nil: each transition's own).
        public var fps: Double?
        public var compression: String
        /// `--match`, or nil.
        public var match: String?
        /// This folder's part and the number of parts.
        public var part: Int, parts: Int
        public var catalogue: [Entry]
        /// `--appearance` when not light (nil, left out of the file, for light), and `--text-size` when
        /// not large: parts rendered with other traits are not parts of the same render.
        public var appearance: String? = nil
        public var textSize: String? = nil

        /// Every stored property given (written out so that the package's tests can call it).
        package init(generator: String, scale: Int, fps: Double? = nil, compression: String, match: String? = nil, part: Int,
                     parts: Int, catalogue: [Entry], appearance: String? = nil, textSize: String? = nil) {
            self.generator = generator
            self.scale = scale
            self.fps = fps
            self.compression = compression
            self.match = match
            self.part = part
            self.parts = parts
            self.catalogue = catalogue
            self.appearance = appearance
            self.textSize = textSize
        }

        /// `catalogue.json`.
        public static let fileName = "catalogue.json"

        /// Whether `other` is a part of the same catalogue render (everything but the part equal).
        public func isSameRender(as other: Record) -> Bool {
            var a = self, b = other
            a.part = 0; b.part = 0
            return a == b
        }

        public func encoded() throws -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return Array(try encoder.encode(self)) + [10]
        }
    }

    /// The catalogue: every built-in, then each scene file of `scenes` (sorted by file name) with each of
    /// its transitions, keeping those whose name matches the glob `match`.
    public static func items(scenes: String?, match: String?) throws -> [Item] {
        var items = TransitionCatalog.all.map { t in Item(name: t.name, source: "built-in", load: { t }) }
        if let scenes {
            let files = try FileManager.default.contentsOfDirectory(atPath: scenes).filter { $0.lowercased().hasSuffix(".json") }.sorted()
            for file in files {
                let path = "\(scenes)/\(file)"
                do {
                    let names = try SceneDocument.read(from: path).offered.map(\.name)
                    for name in names { items.append(Item(name: name, source: path, load: { try SceneTransition.load(path: path, transition: name) })) }
                } catch {
                    // A file that cannot be read is one failed item, named after the file: the rest still render.
                    // Its name reaches catalogue.json (and merge): made to follow the one rule for names.
                    let name = Self.itemName(forFile: String(file.dropLast(5)))
                    items.append(Item(name: name, source: path, load: { throw error }))
                }
            }
        }
        if let match { items = items.filter { fnmatch(match, $0.name, 0) == 0 } }
        var seen = Set<String>()
        for item in items where !seen.insert(item.name).inserted {
            throw ValidationError("two transitions are called '\(item.name)' (a scene file repeats a built-in's or another file's name): each needs its own folder")
        }
        return items
    }

    /// A name that follows `TransitionName` for a scene file that cannot be read: its file name, with every
    /// byte the rule does not allow replaced by `_` (and a leading `-` too), at most 100 bytes.
    static func itemName(forFile base: String) -> String {
        if TransitionName.isValid(base) { return base }
        var bytes = Array(base.utf8.prefix(TransitionName.maxBytes)).map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"): byte
            default: UInt8(ascii: "_")
            }
        }
        if bytes.isEmpty { bytes = Array("_".utf8) }
        if bytes[0] == UInt8(ascii: "-") { bytes[0] = UInt8(ascii: "_") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One item's entry: its frames and cost (frames × pixels), or the error that stopped it.
    static func entry(_ item: Item, _ settings: (any Transition) throws -> RenderSettings, scale: Int) -> Record.Entry {
        do {
            let transition = try item.load()
            let rendered = try transition.render(try settings(transition))
            let pixels = transition.pointSize.width * Double(scale) * transition.pointSize.height * Double(scale)
            return .init(name: item.name, source: item.source, frames: rendered.sequence.count,
                         cost: Double(rendered.sequence.count) * pixels, part: 0, error: nil)
        } catch {
            return .init(name: item.name, source: item.source, frames: 0, cost: 0, part: 0, error: "\(error)")
        }
    }

    /// The plan: each item's frames and cost (its timeline run without drawing) and part of `parts`;
    /// the items are run on `threads` threads at once (the plan is the same for any number).
    public static func plan(_ items: [Item], settings: (any Transition) throws -> RenderSettings, scale: Int, fps: Double?,
                            compression: String, match: String?, part: Int, parts: Int, threads: Int = 1,
                            appearance: String? = nil, textSize: String? = nil) -> Record {
        var entries: [Record.Entry]
        if threads > 1, items.count > 1 {
            let made = Slots<Record.Entry>(count: items.count)
            withoutActuallyEscaping(settings) { settings in
                nonisolated(unsafe) let settings = settings
                nonisolated(unsafe) let all = items
                let lanes = min(threads, items.count)
                DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                    for index in stride(from: lane, to: all.count, by: lanes) { made.set(index, Self.entry(all[index], settings, scale: scale)) }
                }
            }
            entries = made.values
        } else {
            entries = items.map { Self.entry($0, settings, scale: scale) }
        }
        let split = ShardPlan.partition(entries.map { ($0.name, $0.cost) }, parts: parts)
        var partOf: [String: Int] = [:]
        for (p, names) in split.enumerated() { for n in names { partOf[n] = p + 1 } }
        for k in entries.indices { entries[k].part = partOf[entries[k].name] ?? 1 }
        return Record(generator: SmokescreenVersion.generator, scale: scale, fps: fps, compression: compression, match: match,
                      part: part, parts: parts, catalogue: entries, appearance: appearance, textSize: textSize)
    }
}
