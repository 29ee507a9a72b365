import Foundation

/// One self-contained HTML page of a comparison, written beside the images it shows: a summary, then
/// every failing frame first (differing, missing, extra) with its time, its measures (changed pixels and
/// their fraction, anti-aliased pixels, the largest channel difference, the changed region) and expected
/// | actual | difference side by side, with a slider that fades from expected to actual over one
/// picture; then every frame that matched.
///
/// The page needs nothing but the images beside it; its one small script counts the images that loaded
/// (into `body[data-loaded]`, beside `data-images`) and drives the sliders.
public struct HTMLReport: Sendable {
    /// One failing frame.
    public struct Entry: Sendable {
        /// Why it failed.
        public enum Kind: String, Sendable {
            /// Both exist and differ.
            case differs
            /// Expected, not produced.
            case missing
            /// Produced, not expected.
            case extra
        }
        /// The frame's name.
        public var name: String
        /// Why it failed.
        public var kind: Kind
        /// File names beside the report, when written.
        public var expectedFile: String?, actualFile: String?, diffFile: String?
        /// The measures, for differing frames.
        public var difference: FrameDifference?

        /// An entry.
        public init(name: String, kind: Kind, expectedFile: String?, actualFile: String?, diffFile: String?, difference: FrameDifference?) {
            self.name = name
            self.kind = kind
            self.expectedFile = expectedFile
            self.actualFile = actualFile
            self.diffFile = diffFile
            self.difference = difference
        }
    }

    /// The heading.
    public var title: String
    /// How frames were compared (mode, tolerance).
    public var comparison: String
    /// Failing frames, in the order found.
    public var entries: [Entry]
    /// Names of the frames that matched.
    public var matches: [String]
    /// Frame times by name (seconds), where known.
    public var times: [String: Double]

    /// A report.
    public init(title: String, comparison: String, entries: [Entry], matches: [String], times: [String: Double]) {
        self.title = title
        self.comparison = comparison
        self.entries = entries
        self.matches = matches
        self.times = times
    }

    /// The page.
    public var html: String {
        let differing = entries.filter { $0.kind == .differs }.count
        let missing = entries.filter { $0.kind == .missing }.count
        let extra = entries.filter { $0.kind == .extra }.count
        let images = entries.reduce(0) { $0 + [$1.expectedFile, $1.actualFile, $1.diffFile].compactMap { $0 }.count
            + ($1.expectedFile != nil && $1.actualFile != nil ? 2 : 0) }
        var page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; background: #fafafa; }
            h1 { font-size: 20px; } h2 { font-size: 15px; margin: 0 0 8px; }
            .summary { padding: 10px 14px; background: #fff; border: 1px solid #ddd; border-radius: 6px; }
            .fail { border-left: 4px solid #d9534f; } .ok { border-left: 4px solid #5cb85c; }
            section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 12px 14px; margin: 14px 0; }
            .cells { display: flex; gap: 12px; flex-wrap: wrap; align-items: flex-start; }
            figure { margin: 0; } figcaption { font-size: 12px; color: #666; }
            img { max-width: 300px; border: 1px solid #ccc; background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
            .flip { position: relative; display: inline-block; }
            .flip img.actual { position: absolute; left: 0; top: 0; opacity: 0; }
            table { border-collapse: collapse; } td, th { padding: 2px 10px 2px 0; text-align: left; font-variant-numeric: tabular-nums; }
            </style></head>
            <body data-images="\(images)" data-loaded="0">
            <h1>\(escape(title))</h1>
            <div class="summary \(entries.isEmpty ? "ok" : "fail")"><b>\(entries.isEmpty ? "match" : "mismatch")</b>:
            \(differing + matches.count) frames compared\(comparison.isEmpty ? "" : " (\(escape(comparison)))"): \(differing) differ, \(matches.count) match\(missing > 0 ? ", \(missing) missing" : "")\(extra > 0 ? ", \(extra) extra" : "").</div>

            """
        for (index, entry) in entries.enumerated() {
            page += "<section class=\"fail\" id=\"f\(index)\"><h2>\(escape(entry.name))\(timeText(entry.name)) — \(entry.kind.rawValue)</h2>\n"
            if let d = entry.difference {
                page += "<table>"
                if let reason = d.reason { page += "<tr><th>reason</th><td>\(escape(reason))</td></tr>" }
                page += "<tr><th>changed pixels</th><td>\(d.differentPixels) of \(d.pixelCount) (\(String(format: "%.3f", d.differentFraction * 100)) %)</td></tr>"
                page += "<tr><th>anti-aliased pixels</th><td>\(d.antialiasedPixels)</td></tr>"
                page += "<tr><th>largest difference</th><td>\(d.maxChannelDelta) of 255 in one channel</td></tr>"
                if let box = d.boundingBox { page += "<tr><th>changed region</th><td>x \(box.x), y \(box.y), \(box.width)×\(box.height) px</td></tr>" }
                page += "</table>\n"
            }
            page += "<div class=\"cells\">\n"
            for (label, file) in [("expected", entry.expectedFile), ("actual", entry.actualFile), ("difference", entry.diffFile)] {
                if let file { page += "<figure><img src=\"\(link(file))\" alt=\"\(label)\"><figcaption>\(label)</figcaption></figure>\n" }
            }
            if let e = entry.expectedFile, let a = entry.actualFile {
                page += "<figure><div class=\"flip\"><img class=\"expected\" src=\"\(link(e))\" alt=\"expected\">"
                    + "<img class=\"actual\" src=\"\(link(a))\" alt=\"actual\"></div>"
                    + "<figcaption>expected <input type=\"range\" min=\"0\" max=\"100\" value=\"0\" aria-label=\"expected to actual\"> actual</figcaption></figure>\n"
            }
            page += "</div></section>\n"
        }
        if !matches.isEmpty {
            page += "<section class=\"ok\"><h2>\(matches.count) matching frame\(matches.count == 1 ? "" : "s")</h2><table>\n"
            for name in matches { page += "<tr><td>\(escape(name))</td><td>\(timeText(name, bare: true))</td><td>match</td></tr>\n" }
            page += "</table></section>\n"
        }
        page += """
            <script>
            (function () {
              var images = Array.prototype.slice.call(document.images);
              function count() {
                document.body.setAttribute("data-loaded", String(images.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length));
              }
              images.forEach(function (i) { i.addEventListener("load", count); });
              window.addEventListener("load", count);
              document.querySelectorAll(".flip").forEach(function (flip) {
                var slider = flip.parentNode.querySelector("input");
                var top = flip.querySelector("img.actual");
                slider.addEventListener("input", function () { top.style.opacity = String(slider.value / 100); });
              });
            })();
            </script>
            </body></html>

            """
        return page
    }

    private func timeText(_ name: String, bare: Bool = false) -> String {
        guard let t = times[name] else { return bare ? "" : "" }
        let text = String(format: "%.4f s", t)
        return bare ? text : " at \(text)"
    }

    private func link(_ file: String) -> String {
        file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "%?#/:"))) ?? file
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
