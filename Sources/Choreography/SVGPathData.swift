import Foundation
import RasterCore

/// SVG's path data (`d`), the syntax designers' tools export a shape in: read into a `Path` in the
/// same coordinates (points, y down).
///
/// Every command of SVG 2's grammar: `M m L l H h V v C c S s Q q T t A a Z z`, numbers with signs,
/// decimals and exponents, separated by white space or commas or by nothing where the grammar allows
/// (`M10-5`, `.5.5`, an arc's flags written `1 0` or `10`); a repeated command may drop its letter (after
/// `M` the pairs that follow are lines). Arcs become cubic Béziers of at most a quarter turn each (the
/// usual 4/3·tan(θ/4) handles: within 0.03 % of the radius), with SVG's rules for out-of-range radii
/// (scaled up until the arc fits; a zero radius is a line). Errors name the offset in the text.
public enum SVGPathData {
    /// The most commands a path may have (a bound on what one string can make).
    public static let maximumCommands = 100_000

    /// An error in path data: the offset (in UTF-8 bytes) where it was found, and why.
    public struct SyntaxError: Error, CustomStringConvertible, Equatable {
        /// Bytes (UTF-8) from the start of the path data.
        public let offset: Int
        /// What is wrong there.
        public let reason: String
        /// `at offset N: reason`.
        public var description: String { "at offset \(offset): \(reason)" }
    }

    /// `text` as a path; an empty string is an empty path.
    public static func parse(_ text: String) throws(SyntaxError) -> Path {
        var reader = Reader(bytes: Array(text.utf8))
        var path = Path()
        var current = Point(x: 0, y: 0), start = current
        // The second control point of the last cubic (for S) or the control of the last quadratic (for T).
        var lastCubicControl: Point?, lastQuadControl: Point?
        var command: UInt8?
        var commands = 0
        reader.skipSeparators()
        guard !reader.atEnd else { return path }
        guard let first = reader.peekCommand(), first == UInt8(ascii: "M") || first == UInt8(ascii: "m") else {
            throw SyntaxError(offset: reader.offset, reason: "path data starts with a moveto (M or m)")
        }
        while true {
            reader.skipSeparators()
            if reader.atEnd { break }
            if let letter = reader.peekCommand() {
                reader.offset += 1
                command = letter
            } else if let previous = command {
                // A repeated command without its letter: after a moveto, lines.
                guard previous != UInt8(ascii: "Z"), previous != UInt8(ascii: "z") else {
                    throw SyntaxError(offset: reader.offset, reason: "a number after closepath (Z) needs a command letter")
                }
                command = previous == UInt8(ascii: "M") ? UInt8(ascii: "L") : previous == UInt8(ascii: "m") ? UInt8(ascii: "l") : previous
            } else {
                throw SyntaxError(offset: reader.offset, reason: "expected a command letter")
            }
            commands += 1
            guard commands <= maximumCommands else {
                throw SyntaxError(offset: reader.offset, reason: "more than \(maximumCommands) commands")
            }
            let letter = command!
            let relative = letter >= UInt8(ascii: "a")
            func point(_ x: Double, _ y: Double) -> Point { relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y) }
            var cubicControl: Point?, quadControl: Point?
            switch letter | 0x20 {  // lower case
            case UInt8(ascii: "m"):
                let p = point(try reader.number(), try reader.number())
                path.move(to: p)
                current = p; start = p
            case UInt8(ascii: "l"):
                let p = point(try reader.number(), try reader.number())
                path.addLine(to: p)
                current = p
            case UInt8(ascii: "h"):
                let x = try reader.number()
                let p = Point(x: relative ? current.x + x : x, y: current.y)
                path.addLine(to: p)
                current = p
            case UInt8(ascii: "v"):
                let y = try reader.number()
                let p = Point(x: current.x, y: relative ? current.y + y : y)
                path.addLine(to: p)
                current = p
            case UInt8(ascii: "c"):
                let c1 = point(try reader.number(), try reader.number())
                let c2 = point(try reader.number(), try reader.number())
                let p = point(try reader.number(), try reader.number())
                path.addCurve(to: p, control1: c1, control2: c2)
                cubicControl = c2
                current = p
            case UInt8(ascii: "s"):
                // The first control point mirrors the last cubic's second, or is the current point.
                let c1 = lastCubicControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let c2 = point(try reader.number(), try reader.number())
                let p = point(try reader.number(), try reader.number())
                path.addCurve(to: p, control1: c1, control2: c2)
                cubicControl = c2
                current = p
            case UInt8(ascii: "q"):
                let c = point(try reader.number(), try reader.number())
                let p = point(try reader.number(), try reader.number())
                path.addQuadCurve(to: p, control: c)
                quadControl = c
                current = p
            case UInt8(ascii: "t"):
                let c = lastQuadControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let p = point(try reader.number(), try reader.number())
                path.addQuadCurve(to: p, control: c)
                quadControl = c
                current = p
            case UInt8(ascii: "a"):
                let rx = try reader.number(), ry = try reader.number(), rotation = try reader.number()
                let large = try reader.flag(), sweep = try reader.flag()
                let p = point(try reader.number(), try reader.number())
                addArc(to: &path, from: current, to: p, rx: rx, ry: ry, rotationDegrees: rotation, largeArc: large, sweep: sweep)
                current = p
            case UInt8(ascii: "z"):
                path.closeSubpath()
                current = start
            default:
                throw SyntaxError(offset: reader.offset - 1, reason: "'\(Character(UnicodeScalar(letter)))' is not a path command")
            }
            lastCubicControl = cubicControl
            lastQuadControl = quadControl
        }
        return path
    }

    /// SVG's elliptical arc from `p0` to `p1` (F.6.5 of SVG 1.1: endpoint to centre parameterization),
    /// as cubics of at most a quarter turn.
    static func addArc(to path: inout Path, from p0: Point, to p1: Point, rx: Double, ry: Double, rotationDegrees: Double,
                       largeArc: Bool, sweep: Bool) {
        guard p0 != p1 else { return }
        var rx = abs(rx), ry = abs(ry)
        guard rx > 0, ry > 0 else { path.addLine(to: p1); return }
        let phi = rotationDegrees.truncatingRemainder(dividingBy: 360) * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        // Radii too small for the chord are scaled up until the arc just fits. Radii so small beside the
        // chord that the ratio overflows are scaled through their ratio instead (rx' = hypot(x1, y1·rx/ry)).
        // (A zero term is 0 even where a tiny radius's square underflows to 0.)
        let lambda = (x1 == 0 ? 0 : (x1 * x1) / (rx * rx)) + (y1 == 0 ? 0 : (y1 * y1) / (ry * ry))
        if lambda > 1 {
            if lambda.isFinite {
                rx *= lambda.squareRoot(); ry *= lambda.squareRoot()
            } else {
                let ratio = rx / ry
                rx = hypot(x1, y1 * ratio)
                ry = rx / ratio
            }
        }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var factor = denominator > 0 ? (max(0, numerator) / denominator).squareRoot() : 0
        if largeArc == sweep { factor = -factor }
        let cx1 = factor * rx * y1 / ry, cy1 = -factor * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (p0.x + p1.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (p0.y + p1.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double { atan2(ux * vy - uy * vx, ux * vx + uy * vy) }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep, delta > 0 { delta -= 2 * .pi } else if sweep, delta < 0 { delta += 2 * .pi }
        // Radii that, scaled to fit, make an ellipse past Double's range (one radius tiny beside the other):
        // no arc can be worked out, and it is drawn as a straight line (SVG draws one for a zero radius).
        guard [rx, ry, cx, cy, theta1, delta].allSatisfy(\.isFinite) else { path.addLine(to: p1); return }
        let segments = max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = delta / Double(segments)
        let k = 4.0 / 3.0 * tan(step / 4)
        func onEllipse(_ t: Double) -> (Point, Point) {
            // The point at parameter t and the derivative's direction there, in user space.
            let ct = cos(t), st = sin(t)
            let p = Point(x: cx + rx * ct * cosPhi - ry * st * sinPhi, y: cy + rx * ct * sinPhi + ry * st * cosPhi)
            let d = Point(x: -rx * st * cosPhi - ry * ct * sinPhi, y: -rx * st * sinPhi + ry * ct * cosPhi)
            return (p, d)
        }
        var t = theta1
        var (from, fromDerivative) = onEllipse(t)
        for index in 0..<segments {
            t = index == segments - 1 ? theta1 + delta : t + step
            var (to, toDerivative) = onEllipse(t)
            if index == segments - 1 { to = p1 }
            path.addCurve(to: to, control1: Point(x: from.x + k * fromDerivative.x, y: from.y + k * fromDerivative.y),
                          control2: Point(x: to.x - k * toDerivative.x, y: to.y - k * toDerivative.y))
            from = to
            fromDerivative = toDerivative
        }
    }

    /// A cursor over the bytes.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var atEnd: Bool { offset >= bytes.count }

        mutating func skipSeparators() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C, UInt8(ascii: ",")].contains(bytes[offset]) { offset += 1 }
        }

        /// The command letter at the cursor (not consumed), if there is one.
        func peekCommand() -> UInt8? {
            guard offset < bytes.count else { return nil }
            let b = bytes[offset]
            return "MmLlHhVvCcSsQqTtAaZz".utf8.contains(b) ? b : nil
        }

        /// A number (separators before it skipped).
        mutating func number() throws(SyntaxError) -> Double {
            skipSeparators()
            let begin = offset
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            var digits = Self.digits(in: bytes, from: &offset)
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                digits += Self.digits(in: bytes, from: &offset)
            }
            guard digits > 0 else {
                offset = begin
                throw SyntaxError(offset: begin, reason: atEnd ? "the path ends where a number is expected" : "expected a number")
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
                var look = offset + 1
                if look < bytes.count, bytes[look] == UInt8(ascii: "+") || bytes[look] == UInt8(ascii: "-") { look += 1 }
                if Self.digits(in: bytes, from: &look) > 0 { offset = look }
            }
            let text = String(decoding: bytes[begin..<offset], as: UTF8.self)
            guard let value = Double(text), value.isFinite, abs(value) <= 1e7 else {
                throw SyntaxError(offset: begin, reason: "'\(text)' is not a number within ±10,000,000")
            }
            return value
        }

        /// How many decimal digits follow `index` in `bytes`; moves `index` past them.
        static func digits(in bytes: [UInt8], from index: inout Int) -> Int {
            let begin = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - begin
        }

        /// An arc's flag: one character, 0 or 1 (separators before it skipped).
        mutating func flag() throws(SyntaxError) -> Bool {
            skipSeparators()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "0") || bytes[offset] == UInt8(ascii: "1") else {
                throw SyntaxError(offset: offset, reason: "an arc's flags are 0 or 1")
            }
            offset += 1
            return bytes[offset - 1] == UInt8(ascii: "1")
        }
    }
}
