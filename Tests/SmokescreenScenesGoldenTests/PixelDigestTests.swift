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
/// were recorded again after looking.
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
        "vesper-timeline-to-detail@1x#0": "2f919896198f12ee2d5c1e919296df3ae33d6f0152e8c3cc50627e118be8e385",
        "vesper-timeline-to-detail@1x#12": "fad782fa8f72ad99b501d434da251cdbc015c18395ca9c20c814869d7c5f199d",
        "vesper-timeline-to-detail@1x#33": "47194ca714a99996e533b5a5212c1a81b7bf976cbf4664bbb7027b26533784e6",
        "vesper-timeline-to-detail@2x#12": "b0d5aa8c4b8a4b08ac5f0d6859901b6ff8f965737b27a5e348959539693bc00c",
        "vesper-timeline-to-detail@3x#12": "f36a2b462d993759374ac83709b416ac11c53193909d8219d1c8552c70fe7172",
        "vesper-detail-to-picture@2x#8": "a11c271efc7604b59c8849854008f9953fd521b78c81831c5dd35f9d6898100d",
        "table-batch-mixed@1x#9": "1d0c466aa20b06682ab7ba05e8ea0a1c61ff83165809751e59a9481217e2f95d",
        "table-batch-mixed@1x#20": "e2ceacbb0f6f07ced4707254da7f45aa4960576ef186c34738a39e4c0ab8e570",
        "table-batch-mixed@2x#9": "20d553c16bacde3242db38c6be2a3be7c0269f68a1a688d782b8a4311f63570d",
        "table-batch-mixed@3x#9": "da0168810f05efde8f55a1e5f0d54099d2d4f2a5726189cc0b4fed7c12a92771",
        "nav-push@1x#10": "f81e07f30ec44e115605d0e1359cbb359d696f21f0a0438d792652cfdc736b0e",
        "nav-push@2x#10": "bcfcc2cade246463b8f663f2aca3629fb8d0a344fd51f1f8ace50f0c6d2185ea",
        "inippon-history-open@2x#12": "3961f3fa049d9b8103ee7207637672ac3c5008661b060bf10522bbfd1b0d83f0",
        "inippon-pages-scroll@1x#20": "0be3cb506462e4427abb1a3574dbd7cb71bc16447c990f0b5e049f97075464d2",
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
