/// Every limit Smokescreen enforces on what it is given, in one place. Each reader checks its limit
/// before it allocates, and an input over a limit is an error that names the input and the limit.
public enum Limits {
    // MARK: Bitmaps

    /// The most pixels on one side of any bitmap: 16384.
    public static let bitmapMaxSide = 16384
    /// The most pixels in any bitmap: 268,435,456 (2^28, 1 GiB of RGBA).
    public static let bitmapMaxPixels = 268_435_456

    // MARK: Files read

    /// The largest PNG file read, in bytes: 1 GiB.
    public static let pngFileBytes = 1 << 30
    /// The largest ancillary PNG chunk kept while decoding (text, ICC profiles, unknown chunks), in bytes:
    /// 1 MiB. Larger ones are an error; they carry nothing a frame needs.
    public static let pngChunkBytes = 1 << 20
    /// The largest property list read (durations files), in bytes: 1 MiB.
    public static let plistBytes = 1 << 20
    /// The deepest nesting of arrays and dictionaries in a property list: 32.
    public static let plistDepth = 32
    /// The largest `manifest.json` read, in bytes: 64 MiB, room for ``framesPerRender`` frames
    /// (a manifest takes about 170 bytes a frame).
    public static let manifestBytes = 64 << 20
    /// The longest string in a manifest or plist, in bytes: 4096.
    public static let stringBytes = 4096

    /// The largest scene file read, in bytes: 4 MiB.
    public static let sceneBytes = 4 << 20
    /// The most views in one scene file, over all its states: 10,000.
    public static let sceneViews = 10_000
    /// The deepest nesting of views in a scene file: 32.
    public static let sceneDepth = 32
    /// The most views with a `material` in one state of a scene file: 16. Each blurs what is behind it every
    /// frame (about 55 ms for a 2,000-point canvas at @1x), so that a frame's blurring stays bounded.
    public static let sceneMaterialsPerState = 16
    /// The largest coordinate or size in a scene file, in points: 100,000.
    public static let scenePoints = 100_000.0

    // MARK: Archives (`merge`)

    /// The most bytes all the files of one `.tar`/`.tar.gz` part may hold together, unpacked: 4 GiB.
    /// (Each frame is also at most ``pngFileBytes`` and each JSON file at most ``manifestBytes``; larger
    /// renders are merged from folders.)
    public static let archiveBytes: Int64 = 4 << 30
    /// The most members (files and folders) in one archive: 250,000.
    public static let archiveEntries = 250_000
    /// The deepest member path of an archive, in folders and file: 8 (merge needs 3: part/transition/frame).
    public static let archiveDepth = 8
    /// The longest member path of an archive, in bytes: 1024 (each name in it at most 255).
    public static let archivePathBytes = 1024
    /// The highest ratio of unpacked to compressed bytes, checked once 64 MiB are unpacked: 1100 (above
    /// gzip's own maximum of about 1032, so only a bomb of another kind trips it).
    public static let archiveRatio: Int64 = 1100

    // MARK: Renders

    /// The most frames one render may have: 100,000.
    public static let framesPerRender = 100_000
    /// The lowest frame rate: one frame in ``maxSeconds``, 1/600 frames per second. Below it a frame
    /// interval is longer than any transition, and frame times (hold frames, a preview's last delay)
    /// would run to numbers nothing can convert.
    public static let minFPS = 1.0 / 600.0
    /// How ``minFPS`` … ``maxFPS`` reads in messages: `1/600…1000`.
    public static let fpsRange = "1/600…1000"
    /// The highest frame rate: 1000 frames per second.
    public static let maxFPS = 1000.0
    /// The longest duration or delay of an animation block, and the longest a transition may run, in
    /// seconds: 600 (ten minutes), so that a typo cannot ask for a day of frames.
    public static let maxSeconds = 600.0
    /// The most views drawn in one render, summed over its frames (frames × views in each frame's
    /// presentation tree): 1,000,000. A render keeps one frozen presentation tree per frame (about 210 bytes
    /// a view, measured), so this bounds what the trees of a render take to about 210 MB; more (many views
    /// with a long cascade, or a high `--fps`) is refused before the frames are drawn. `check` enforces it at
    /// a scene's default frame rate (60 fps).
    public static let viewFramesPerRender = 1_000_000
    /// The deepest nesting of views (or layers) a stage draws, counted from its window: 256. A tree is
    /// frozen and drawn by recursion, each level a stack frame; a deeper tree (no interface nests so far:
    /// iOS's own screens are a few dozen deep) is refused with this limit's name, not a crash.
    public static let viewNesting = 256
    /// The most frames repeated after the end (`--hold`): 10,000.
    public static let maxHoldFrames = 10_000
    /// The most threads a render or comparison uses (`--jobs`): 256.
    public static let maxJobs = 256
    /// The most parts a render may be split into (`--shard K/N`): 10,000.
    public static let maxShards = 10_000
}
