import Foundation

/// A running live preview: the library of transitions, the watcher that reloads it, and the server.
public final class LivePreview: @unchecked Sendable {
    /// The transitions, reloaded on every change of their files.
    public let library: PreviewLibrary
    /// The HTTP server (its ``PreviewServer/port`` once started).
    public let server: PreviewServer
    private let watcher: FileWatcher?
    /// Called after each reload (on the watcher's thread) with the version, the seconds it took and the
    /// errors, for the log.
    public var onReload: (@Sendable (Int, Double, [String]) -> Void)?

    /// Reads the source once (its first render), then serves it on `host:port` (0: a free port) and
    /// watches its files.
    public init(source: PreviewSource, settings: PreviewSettings, pageDirectory: String) throws {
        library = PreviewLibrary(source: source, settings: settings)
        library.reload()
        server = PreviewServer(router: PreviewRouter(library: library, pageDirectory: pageDirectory))
        if case .builtIn = source { watcher = nil } else { watcher = try FileWatcher() }
    }

    /// Starts serving and watching. `allowedHosts`: names requests may use besides the address and
    /// `localhost` (``HostPolicy``).
    public func start(host: String, port: Int, allowedHosts: [String] = []) async throws {
        try await server.start(host: host, port: port, allowedHosts: allowedHosts)
        guard let watcher else { return }
        watcher.watch(library.watchedFiles())
        let library = self.library
        watcher.start { [weak self] _ in
            let start = Date()
            let version = library.reload()
            // A reload may name new files (an image, a plist): watch them too.
            watcher.watch(library.watchedFiles())
            self?.onReload?(version, Date().timeIntervalSince(start), library.currentErrors)
        }
    }

    /// The URL the page is at.
    public func url(host: String) -> String {
        let bare = HostPolicy.unbracketed(host)
        let shown = bare.contains(":") ? "[\(bare)]" : bare
        return "http://\(shown):\(server.port)/"
    }

    /// Stops watching and serving; nothing is left behind (the preview writes no file).
    public func stop() async {
        watcher?.stop()
        await server.stop()
    }
}
