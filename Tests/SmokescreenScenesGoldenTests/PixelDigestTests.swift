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
/// into the back button).
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
        "vesper-timeline-to-detail@1x#12": "439ed489e541658a4cda4d177f988288a5e7a12e16c00f0a1276fe2506a761c5",
        "vesper-timeline-to-detail@1x#33": "47194ca714a99996e533b5a5212c1a81b7bf976cbf4664bbb7027b26533784e6",
        "vesper-timeline-to-detail@2x#12": "59b8c698fe87134b682aac15cac72563824fa745096cc6593a086239389bd031",
        "vesper-timeline-to-detail@3x#12": "1be80c825e76d1adf1542b9af03edaa4396a702d1d0cab4e50c6b1432a0f6aee",
        "vesper-detail-to-picture@2x#8": "f0d93f9234c21307464407a612bf750db40aae87ea23a9884fa1707f4284cb2b",
        "table-batch-mixed@1x#9": "fc856abb567378093e1df0e02118fd4303df13563b5852044e9b46266d1d3add",
        "table-batch-mixed@1x#20": "437a1c01d896071090f8b1ff516c28bde3269e1aaa9cc452d5588c7078e6b188",
        "table-batch-mixed@2x#9": "41e57d324de2035ea76346bfeb4fed6d85ad46468efb95f3a8913ab7bef32314",
        "table-batch-mixed@3x#9": "54e119256d4544384e40c7e7ce255d735c4374b4337ee3cfe350736cde2177d6",
        "nav-push@1x#10": "7599a2b98b02ac5de2d5f49df3618416f58e916f77bd8f4b114d9ed7597d0e22",
        "nav-push@2x#10": "719e35e1ef25a46eaee842eee1dd515d55e47ba2e458923b2af9d6382256669f",
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
