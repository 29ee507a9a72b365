import FrameStore
import Foundation
import PNGIO
import RasterCore
import SmokescreenScenes
import TransitionCompositor
import XCTest

/// Speed work may change how frames are drawn and compressed, never the pixels: a sample of built-in frames
/// at @1x, @2x and @3x, drawn, encoded with the default preset (`fast`, ISA-L), decoded again and hashed,
/// against the SHA-256 of the same frames decoded from the files of the version before the performance
/// work of issue 29 (commit 22281f0, decoded by an independent reader: Pillow, as RGBA rows). The page curl
/// is not in the sample: it was redrawn on purpose (per pixel instead of in strips), and its goldens
/// were recorded again after looking. The Vesper, table and navigation entries were made again the same
/// way, after looking, when issue 44 changed those frames on purpose (round chevrons, semibold bar titles,
/// no separators beside a highlighted row, the picture covering Vesper's text, the bar title travelling
/// into the back button), again when the built-in phone screens gained iOS's status bar (every
/// entry but the reference scene's), and again when the table and navigation built-ins' bar became iOS
/// 15's (no background and no hairline while the content is at its top), and once more for a frame whose
/// moving rows' text now moves with them by fractions of a pixel (issue 43's layers moving as one).
///
/// The digests were made with (from the repository's root, the older build's binary as `OLD`):
/// `OLD render NAME --scale S --out DIR`, then for each frame
/// `hashlib.sha256(Image.open(path).convert("RGBA").tobytes()).hexdigest()`. Every sampled frame is
/// opaque, so its straight and premultiplied pixels are the same bytes.
final class PixelDigestTests: XCTestCase {
    /// "name@Sx#frame": the SHA-256 of the frame's RGBA8 rows.
    static let digests: [String: String] = [
        "reference@1x#0": "fed6b25ef86bced4a32feedb713ff50c5118d3868529cfd6bd1d9c4a5c6fd6cc",
        "reference@1x#14": "99b8532b864ff4a38afff978ded154f31fbd112a768313032bc70abbbf2a96c6",
        "reference@1x#29": "42b9e44b63305cdb35b7203766dc353d353e7058aefc6cc9de961546e7df4c67",
        "reference@2x#0": "5079654ff3c57581c6330841d100bf168ae46773bf173428911bc307275fedab",
        "reference@2x#14": "a1d218633ed36bd6c00c6c1693a2f71a81f17523ba91a21e7d3237582a399565",
        "reference@2x#29": "611feb95ce66b770b8074b912c6ff9ac4fef234c84fb22ddd70ae057b1c5348f",
        "reference@3x#14": "9641c5d028a6e0820075c13c59550eda7c96f03d6ac6e14563b42524ea6329a0",
        "vesper-timeline-to-detail@1x#0": "01f92462ecaf054fb8bebeb8d659fcca330d0a86e94b75c79659916b6e90ed9f",
        "vesper-timeline-to-detail@1x#12": "e607e8e8fdb37aa922a50fcaec0caa4a8c6d233e3f20930afbbfed57bcedeb64",
        "vesper-timeline-to-detail@1x#33": "45ab83512767ba5bc06daee1cdb6f6a9e4b83b4798ac50e4bf9863e2aa703750",
        "vesper-timeline-to-detail@2x#12": "c0234a824ba739b95cfaba596c2c8ad8fdaf0942ea7c45917233ce8870b5f1f9",
        "vesper-timeline-to-detail@3x#12": "9df90d1e49b94354e71c35aae279298c34c18a4dedb4fb06af75addb97d34eb3",
        "vesper-detail-to-picture@2x#8": "cfa34dde4ac6665838ab8bedf0efc523b39af24d4023d05239af65f39b2224d0",
        "table-batch-mixed@1x#9": "8f407ada88ff0bdd1be1cb9b83f9a09aee5dcf9f826aead54630ec166fa720d1",
        "table-batch-mixed@1x#20": "71d49e1d664599206d4597d405cb8303b1f074fc09a33118475a59efebf2fa3e",
        "table-batch-mixed@2x#9": "cd67ba5a44614868929b77667dcc089f8c7302ca455e865cd0e38be947b4b039",
        "table-batch-mixed@3x#9": "c360a7c395a68d90fe2de7bba83c74e35921cce84cbb7831a5844d3ff722d9ce",
        "nav-push@1x#10": "88ac7c121220b0f2f01a6454c96c54dde7b9767ebcd5f7ab2bf17f74e5526252",
        "nav-push@2x#10": "deed60a992d2ab7082fb58253ee3a2605aaa120733594df5f882f2ce1aca158e",
        "inippon-history-open@2x#12": "49bd4db902b10ce99f6d5c18ecc8ee67660943e6bb128632323986c7ca50271d",
        "inippon-pages-scroll@1x#20": "38abea821b63938cc6939007181982286ddcdc0f5b7afd988a8e8f3ca44815f2",
    ]

    func testSampledFramesDecodeToThePixelsOfTheVersionBefore() throws {
        // The sample, grouped so that each transition is built once per scale.
        var groups: [String: [(scale: Int, frame: Int, digest: String)]] = [:]
        for (key, digest) in Self.digests {
            let name = String(key.prefix(while: { $0 != "@" }))
            let scale = Int(key.split(separator: "@")[1].prefix(1)) ?? 0
            let frame = Int(key.split(separator: "#")[1]) ?? -1
            groups[name + "@" + String(scale), default: []].append((scale, frame, digest))
        }
        XCTAssertEqual(Set(groups.values.flatMap { $0.map(\.scale) }), [1, 2, 3], "the sample covers @1x, @2x and @3x")
        for (group, entries) in groups.sorted(by: { $0.key < $1.key }) {
            let name = String(group.prefix(while: { $0 != "@" }))
            let transition = try XCTUnwrap(TransitionCatalog.transition(named: name), name)
            let settings = RenderSettings(scale: Double(entries[0].scale), assetsDirectory: TransitionGoldenTests.assets)
            let sequence = try transition.render(settings).sequence
            var canvas = try sequence.makeCanvas()
            for entry in entries.sorted(by: { $0.frame < $1.frame }) {
                XCTAssertLessThan(entry.frame, sequence.count, "\(group) has a frame \(entry.frame)")
                guard entry.frame < sequence.count else { continue }
                sequence.draw(frame: entry.frame, into: &canvas)
                let decoded = try PNGCodec.decode(try PNGCodec.encode(canvas, compression: .fast))
                XCTAssertEqual(decoded.withUnsafeBytes { Array($0) }, canvas.withUnsafeBytes { Array($0) },
                               "\(group) frame \(entry.frame): the PNG decodes to the frame drawn")
                let digest = Digest.sha256Hex(decoded.withUnsafeBytes { Array($0) })
                XCTAssertEqual(digest, entry.digest, "\(group) frame \(entry.frame): pixels differ from the version before")
            }
        }
    }
}
