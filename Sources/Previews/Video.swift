import BoundedInput
import Foundation
import RasterCore

/// An MP4 (H.264, `yuv420p`) from preview frames, through the `ffmpeg` executable: frames are piped to
/// it as raw RGBA at the render's frame rate, padded to even sizes (H.264 in 4:2:0 needs them), encoded
/// single-threaded with bit-exact flags and no metadata, so the same frames give the same bytes. The
/// file is written under a temporary name and renamed when ffmpeg succeeds.
public enum Video {
    /// The `ffmpeg` found on `PATH` (or `SMOKESCREEN_FFMPEG`), or nil.
    public static func ffmpegPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given = environment["SMOKESCREEN_FFMPEG"], FileManager.default.isExecutableFile(atPath: given) { return given }
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Writes the MP4 of `frames` to `path`. Throws a clear error when ffmpeg is not installed (looked
    /// for with `environment`, default the process's).
    public static func writeMP4(_ frames: PreviewFrames, to path: String,
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let ffmpeg = ffmpegPath(environment: environment) else {
            throw PreviewError.failed("MP4 needs the ffmpeg executable, which is not installed (Debian: apt-get install ffmpeg); the other previews do not")
        }
        let temporary = "\(path).tmp-\(getpid()).mp4"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                             "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(frames.pixelWidth)x\(frames.pixelHeight)",
                             "-framerate", String(format: "%g", frames.fps), "-i", "pipe:0",
                             "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=white",
                             "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "medium", "-crf", "18", "-threads", "1",
                             "-flags", "+bitexact", "-fflags", "+bitexact", "-map_metadata", "-1", "-movflags", "+faststart",
                             temporary]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch { throw PreviewError.failed("cannot run \(ffmpeg): \(error)") }
        nonisolated(unsafe) var errorText = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorText = errors.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        var writeFailure: Error?
        for index in frames.times.indices {
            do {
                let rgba = AnimatedGIF.straightOnWhite(try frames.frame(index))
                try input.fileHandleForWriting.write(contentsOf: rgba)
            } catch {
                writeFailure = error
                break
            }
        }
        try? input.fileHandleForWriting.close()
        drained.wait()
        process.waitUntilExit()
        guard writeFailure == nil, process.terminationStatus == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            if let writeFailure, !(writeFailure is CocoaError) { throw writeFailure }
            let message = String(decoding: errorText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw PreviewError.failed("ffmpeg failed (status \(process.terminationStatus)) making \(path): \(message)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw PreviewError.output(path: path, reason: reason)
        }
    }
}
