import CCPUFeatures
import CRasterKernels
import Foundation
import XCTest

/// `crk_page_curl` called directly with inputs the page curl never makes as well as those it does: any
/// 32-bit pixels (channels above alpha), shadow profiles outside 0…1, shades outside 0…1, any device
/// mapping, any window. The AVX2 passes (per pixel, and the straight case's rows) must give the portable
/// passes' bytes for all of them.
final class CurlKernelTests: XCTestCase {
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func byte() -> UInt32 { UInt32(next() & 0xFF) }
        mutating func pixel(premultiplied: Bool) -> UInt32 {
            if !premultiplied { return UInt32(truncatingIfNeeded: next()) }
            let kind = next() % 4
            let a: UInt32 = kind == 0 ? 255 : kind == 1 ? 0 : byte()
            if a == 0 { return 0 }
            return (byte() * a / 255) | (byte() * a / 255) << 8 | (byte() * a / 255) << 16 | a << 24
        }
    }

    func testTheVectorPassGivesThePortableBytesForAnyInput() {
        if ccpu_features() & UInt32(CCPU_AVX2) == 0 { print("no AVX2 here: both runs use the portable code") }
        let forced = ccpu_scalar_forced()
        defer { ccpu_force_scalar(forced) }
        var random = Random(state: 0x5DEE_CE66_D1CE_4E5B)
        let profile = (0...4096).map { 0.25 * pow(1 - Double($0) / 4096, 1.25) }
        var drawn = 0
        for n in 0..<200 {
            let scale = Double(1 + random.next() % 3)
            // A quarter straight over whole device pixels (the per-column path), the rest anything.
            let straight = random.next() % 4 == 0
            var pw = 12 + random.unit() * 60, ph = 12 + random.unit() * 70
            if straight { pw.round(); ph.round() }
            let iw = Int((pw * scale).rounded(.up)), ih = Int((ph * scale).rounded(.up))
            // The page ending where its image does, or a fraction of a pixel before.
            if random.next() % 2 == 0 { pw = Double(iw) / scale; ph = Double(ih) / scale }
            let premultiplied = random.next() % 4 != 0
            let front = (0..<iw * ih).map { _ in random.pixel(premultiplied: premultiplied) }
            let back = (0..<iw * ih).map { _ in random.pixel(premultiplied: premultiplied) }
            let progress = random.unit(), angle = straight || random.next() % 3 == 0 ? 0 : (random.unit() - 0.5) * 2.4
            var radius = pw * (0.15 + 0.15 * progress)
            if random.next() % 10 == 0 { radius = random.unit() * 3 }
            let nx = cos(angle), ny = -sin(angle)
            let pivot = ph * random.unit()
            let start = pw + ph * abs(tan(angle))
            let end = (min(pivot * sin(angle), -(ph - pivot) * sin(angle)) - 0.6 * pw) / cos(angle)
            let ax = start - progress * (start - end), ay = pivot
            let far = [(0.0, 0.0), (pw, 0), (0, ph), (pw, ph)].map { ($0.0 - ax) * nx + ($0.1 - ay) * ny }.max()!
            let outer = far >= Double.pi * radius / 2 ? radius : (far <= 0 ? far : radius * sin(far / radius))
            // Device pixels per point: the image's or another; sometimes rotated; whole or fractional origin.
            let ds = scale * (!straight && random.next() % 4 == 0 ? 0.5 + random.unit() * 1.5 : 1)
            let rotation = !straight && random.next() % 6 == 0 ? random.unit() - 0.5 : 0
            let tx = straight || random.next() % 2 == 0 ? Double(random.next() % 40) : random.unit() * 40
            let ty = straight || random.next() % 2 == 0 ? Double(random.next() % 40) : random.unit() * 40
            let a = ds * cos(rotation), b = ds * sin(rotation), c = -b, d = a
            let det = a * d - b * c
            let shade = random.next() % 20 == 0 ? random.unit() * 4 - 2 : 0.35
            let shadow = random.next() % 10 == 0 ? (0...4096).map { _ in random.unit() * 5 - 2 } : profile
            let w = Int(ds * (pw + ph)) + 100, h = w
            let x0 = random.next() % 3 == 0 ? Int(random.next() % 30) : 0, y0 = random.next() % 3 == 0 ? Int(random.next() % 30) : 0
            let width = w - x0 - Int(random.next() % 20), height = h - y0 - Int(random.next() % 20)
            let clear = random.next() % 3 == 0
            let below = (0..<w * h).map { _ in clear ? 0 : random.pixel(premultiplied: true) }
            func draw() -> [UInt32] {
                var out = below
                front.withUnsafeBufferPointer { f in
                    back.withUnsafeBufferPointer { bk in
                        shadow.withUnsafeBufferPointer { s in
                            var curl = crk_curl(
                                device_to_page_a: d / det, device_to_page_b: -b / det, device_to_page_c: -c / det, device_to_page_d: a / det,
                                origin_x: tx, origin_y: ty, pixels_per_point: abs(det).squareRoot(), axis_x: ax, axis_y: ay, normal_x: nx, normal_y: ny,
                                radius: radius, page_width: pw, page_height: ph, farthest: far, outer: outer, edge_shade: shade,
                                front: f.baseAddress, back: bk.baseAddress, image_width: Int32(iw), image_height: Int32(ih), image_scale: scale,
                                shadow: s.baseAddress, shadow_count: Int32(s.count - 1))
                            out.withUnsafeMutableBufferPointer { o in
                                crk_page_curl(&curl, o.baseAddress! + y0 * w + x0, Int32(w), Int32(x0), Int32(y0), Int32(width), Int32(height))
                            }
                        }
                    }
                }
                return out
            }
            ccpu_force_scalar(0)
            let vector = draw()
            ccpu_force_scalar(1)
            let scalar = draw()
            if vector != scalar {
                let i = vector.indices.first { vector[$0] != scalar[$0] }!
                XCTFail("case \(n): pixel \(i % w),\(i / w): vector \(String(vector[i], radix: 16)), scalar \(String(scalar[i], radix: 16)); @\(Int(scale))x, \(ds) px/pt, rotation \(rotation), angle \(angle), progress \(progress), radius \(radius), premultiplied \(premultiplied)")
                return
            }
            if scalar != below { drawn += 1 }
        }
        XCTAssertGreaterThan(drawn, 130, "most cases draw something")
    }

    /// A shadow profile of one sample (`shadow_count` 0) is that sample over the whole radius: the bytes of a
    /// profile of two equal samples, straight and tilted. (It read the element before the profile, here a
    /// NaN, which would spoil the shadow.)
    func testAOneSampleShadowProfileIsThatSampleThroughout() {
        let forced = ccpu_scalar_forced()
        defer { ccpu_force_scalar(forced) }
        let iw = 60, ih = 80, w = 140, h = 140
        var random = Random(state: 0x0DD5_A3B1_E5EE_D001)
        let front = (0..<iw * ih).map { _ in random.pixel(premultiplied: true) | 0xFF00_0000 }
        let back = (0..<iw * ih).map { _ in random.pixel(premultiplied: true) | 0xFF00_0000 }
        let below = (0..<w * h).map { _ in random.pixel(premultiplied: true) | 0xFF00_0000 }
        func draw(angle: Double, profile: [Double]) -> [UInt32] {
            let pw = Double(iw), ph = Double(ih), progress = 0.4, radius = pw * 0.2
            let nx = cos(angle), ny = -sin(angle), pivot = ph / 2
            let start = pw + ph * abs(tan(angle))
            let end = (min(pivot * sin(angle), -(ph - pivot) * sin(angle)) - 0.6 * pw) / cos(angle)
            let ax = start - progress * (start - end)
            let far = [(0.0, 0.0), (pw, 0), (0, ph), (pw, ph)].map { ($0.0 - ax) * nx + ($0.1 - pivot) * ny }.max()!
            let outer = far >= Double.pi * radius / 2 ? radius : (far <= 0 ? far : radius * sin(far / radius))
            var out = below
            front.withUnsafeBufferPointer { f in
                back.withUnsafeBufferPointer { bk in
                    ([.nan] + profile).withUnsafeBufferPointer { s in
                        var curl = crk_curl(
                            device_to_page_a: 1, device_to_page_b: 0, device_to_page_c: 0, device_to_page_d: 1,
                            origin_x: 20, origin_y: 20, pixels_per_point: 1, axis_x: ax, axis_y: pivot, normal_x: nx, normal_y: ny,
                            radius: radius, page_width: pw, page_height: ph, farthest: far, outer: outer, edge_shade: 0.35,
                            front: f.baseAddress, back: bk.baseAddress, image_width: Int32(iw), image_height: Int32(ih), image_scale: 1,
                            shadow: s.baseAddress! + 1, shadow_count: Int32(s.count - 2))
                        out.withUnsafeMutableBufferPointer { o in
                            crk_page_curl(&curl, o.baseAddress!, Int32(w), 0, 0, Int32(w), Int32(h))
                        }
                    }
                }
            }
            return out
        }
        for angle in [0, 0.3] {
            for scalar in [false, true] {
                ccpu_force_scalar(scalar ? 1 : 0)
                let one = draw(angle: angle, profile: [0.4]), two = draw(angle: angle, profile: [0.4, 0.4])
                let first = one.indices.first { one[$0] != two[$0] }
                XCTAssertNil(first, "angle \(angle), scalar \(scalar): one sample against two equal ones differ first at pixel \(first.map { "\($0 % w),\($0 / w)" } ?? "")")
                XCTAssertTrue(two != draw(angle: angle, profile: [0, 0]), "angle \(angle): the shadow shows")
            }
        }
    }

    /// Where the page lies on whole device pixels one to one, the flat front (before the part turned over,
    /// and on each row of a tilted curl up to where that row's turned-over part begins) is copied, not
    /// sampled: for premultiplied pages the copies must give the bytes sampling every pixel gives.
    func testTheFlatFrontsCopiesGiveTheSampledBytes() {
        defer { crk_curl_sample_every_pixel(0) }
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        let profile = (0...4096).map { 0.25 * pow(1 - Double($0) / 4096, 1.25) }
        var copied = 0
        for n in 0..<120 {
            let scale = Double(1 + random.next() % 3)
            let iw = 24 + Int(random.next() % 120), ih = 24 + Int(random.next() % 140)
            let pw = Double(iw) / scale, ph = Double(ih) / scale
            let front = (0..<iw * ih).map { _ in random.pixel(premultiplied: true) }
            let back = (0..<iw * ih).map { _ in random.pixel(premultiplied: true) }
            // A third straight, the rest tilted either way (the per-row bound), some steeply.
            let angle = random.next() % 3 == 0 ? 0 : (random.unit() - 0.5) * 2.4
            let progress = random.unit(), radius = pw * (0.15 + 0.15 * progress)
            let nx = cos(angle), ny = -sin(angle), pivot = ph * random.unit()
            let start = pw + ph * abs(tan(angle))
            let end = (min(pivot * sin(angle), -(ph - pivot) * sin(angle)) - 0.6 * pw) / cos(angle)
            let ax = start - progress * (start - end), ay = pivot
            let far = [(0.0, 0.0), (pw, 0), (0, ph), (pw, ph)].map { ($0.0 - ax) * nx + ($0.1 - ay) * ny }.max()!
            let outer = far >= Double.pi * radius / 2 ? radius : (far <= 0 ? far : radius * sin(far / radius))
            let tx = Double(random.next() % 20), ty = Double(random.next() % 20)
            let w = iw + 40, h = ih + 40
            let below = (0..<w * h).map { _ in random.pixel(premultiplied: true) }
            func draw(copies: Bool) -> [UInt32] {
                crk_curl_sample_every_pixel(copies ? 0 : 1)
                var out = below
                front.withUnsafeBufferPointer { f in
                    back.withUnsafeBufferPointer { bk in
                        profile.withUnsafeBufferPointer { s in
                            var curl = crk_curl(
                                device_to_page_a: 1 / scale, device_to_page_b: 0, device_to_page_c: 0, device_to_page_d: 1 / scale,
                                origin_x: tx, origin_y: ty, pixels_per_point: scale, axis_x: ax, axis_y: ay, normal_x: nx, normal_y: ny,
                                radius: radius, page_width: pw, page_height: ph, farthest: far, outer: outer, edge_shade: 0.35,
                                front: f.baseAddress, back: bk.baseAddress, image_width: Int32(iw), image_height: Int32(ih), image_scale: scale,
                                shadow: s.baseAddress, shadow_count: Int32(s.count - 1))
                            out.withUnsafeMutableBufferPointer { o in
                                crk_page_curl(&curl, o.baseAddress!, Int32(w), 0, 0, Int32(w), Int32(h))
                            }
                        }
                    }
                }
                return out
            }
            let withCopies = draw(copies: true), sampled = draw(copies: false)
            if withCopies != sampled {
                let i = withCopies.indices.first { withCopies[$0] != sampled[$0] }!
                XCTFail("case \(n): pixel \(i % w),\(i / w): copied \(String(withCopies[i], radix: 16)), sampled \(String(sampled[i], radix: 16)); @\(Int(scale))x, angle \(angle), progress \(progress)")
                return
            }
            if progress > 0.1 { copied += 1 }
        }
        XCTAssertGreaterThan(copied, 90, "most cases have a flat front to copy")
    }
}
