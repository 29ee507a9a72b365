internal import RasterCore

/// Smokescreen's own vector drawings of the SF Symbols standard chrome and common code use, in SF
/// Symbols' style: strokes with round ends and joins, `.fill` variants filled, `.circle` variants
/// ringed (the `.circle.fill` ones a disc with the glyph cut out). Each is laid out in a box measured in
/// units of the symbol's size (its point size times its scale), drawn in black at the main screen's scale.
enum SymbolArtwork {
    /// A drawing: its box (units), and what it draws with `Pen`.
    struct Glyph: Sendable {
        var width: CGFloat
        var height: CGFloat
        var draw: @Sendable (Pen) -> Void
    }

    /// Draws in a glyph's units: points are scaled by `unit`; strokes are `stroke` points wide.
    struct Pen: Sendable {
        let unit: CGFloat
        let stroke: CGFloat
        let origin: CGPoint

        func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: origin.x + x * unit, y: origin.y + y * unit) }

        /// A stroked polyline through the points (units).
        func line(_ points: [(CGFloat, CGFloat)], closed: Bool = false) {
            guard let first = points.first else { return }
            let path = UIBezierPath()
            path.move(to: p(first.0, first.1))
            for point in points.dropFirst() { path.addLine(to: p(point.0, point.1)) }
            if closed { path.close() }
            stroked(path)
        }

        /// A filled polygon, its corners rounded by a stroke of its own colour.
        func polygon(_ points: [(CGFloat, CGFloat)], rounding: CGFloat? = nil) {
            guard let first = points.first else { return }
            let path = UIBezierPath()
            path.move(to: p(first.0, first.1))
            for point in points.dropFirst() { path.addLine(to: p(point.0, point.1)) }
            path.close()
            path.fill()
            path.lineWidth = rounding.map { $0 * unit } ?? stroke
            path.lineJoinStyle = .round
            path.stroke()
        }

        func ring(_ cx: CGFloat, _ cy: CGFloat, _ r: CGFloat) {
            stroked(UIBezierPath(ovalIn: CGRect(x: origin.x + (cx - r) * unit + stroke / 2, y: origin.y + (cy - r) * unit + stroke / 2,
                                                width: 2 * r * unit - stroke, height: 2 * r * unit - stroke)))
        }

        func disc(_ cx: CGFloat, _ cy: CGFloat, _ r: CGFloat) {
            UIBezierPath(ovalIn: CGRect(x: origin.x + (cx - r) * unit, y: origin.y + (cy - r) * unit, width: 2 * r * unit, height: 2 * r * unit)).fill()
        }

        func roundedRect(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat, radius: CGFloat, filled: Bool) {
            if filled {
                UIBezierPath(roundedRect: CGRect(x: origin.x + x * unit, y: origin.y + y * unit, width: w * unit, height: h * unit), cornerRadius: radius * unit).fill()
            } else {
                stroked(UIBezierPath(roundedRect: CGRect(x: origin.x + x * unit + stroke / 2, y: origin.y + y * unit + stroke / 2,
                                                         width: w * unit - stroke, height: h * unit - stroke), cornerRadius: max(0, radius * unit - stroke / 2)))
            }
        }

        /// A custom path in units, filled or stroked.
        func path(filled: Bool, _ build: (UIBezierPath, (CGFloat, CGFloat) -> CGPoint) -> Void) {
            let path = UIBezierPath()
            build(path, p)
            if filled { path.fill() } else { stroked(path) }
        }

        func stroked(_ path: UIBezierPath) {
            path.lineWidth = stroke
            path.lineCapStyle = .round
            path.lineJoinStyle = .round
            path.stroke()
        }

        /// The same pen over a sub-box: `scale` of the units, at (`x`, `y`) units.
        func inset(_ x: CGFloat, _ y: CGFloat, scale: CGFloat) -> Pen {
            Pen(unit: unit * scale, stroke: stroke, origin: p(x, y))
        }
    }

    /// The names drawn here (with `.circle`, `.circle.fill` and `.fill` variants where listed).
    static let glyphs: [String: Glyph] = {
        var g: [String: Glyph] = [:]
        g["plus"] = Glyph(width: 1, height: 1) { $0.line([(0.06, 0.5), (0.94, 0.5)]); $0.line([(0.5, 0.06), (0.5, 0.94)]) }
        g["minus"] = Glyph(width: 1, height: 0.2) { $0.line([(0.06, 0.1), (0.94, 0.1)]) }
        g["xmark"] = Glyph(width: 0.84, height: 0.84) { $0.line([(0.06, 0.06), (0.78, 0.78)]); $0.line([(0.78, 0.06), (0.06, 0.78)]) }
        g["checkmark"] = Glyph(width: 1, height: 0.94) { $0.line([(0.07, 0.52), (0.37, 0.86), (0.93, 0.08)]) }
        g["chevron.right"] = Glyph(width: 0.56, height: 0.96) { $0.line([(0.1, 0.06), (0.46, 0.48), (0.1, 0.9)]) }
        g["chevron.left"] = Glyph(width: 0.56, height: 0.96) { $0.line([(0.46, 0.06), (0.1, 0.48), (0.46, 0.9)]) }
        g["chevron.down"] = Glyph(width: 0.96, height: 0.56) { $0.line([(0.06, 0.1), (0.48, 0.46), (0.9, 0.1)]) }
        g["chevron.up"] = Glyph(width: 0.96, height: 0.56) { $0.line([(0.06, 0.46), (0.48, 0.1), (0.9, 0.46)]) }
        g["chevron.forward"] = g["chevron.right"]
        g["chevron.backward"] = g["chevron.left"]
        g["arrow.right"] = Glyph(width: 1, height: 0.86) { $0.line([(0.06, 0.43), (0.92, 0.43)]); $0.line([(0.56, 0.07), (0.92, 0.43), (0.56, 0.79)]) }
        g["arrow.left"] = Glyph(width: 1, height: 0.86) { $0.line([(0.08, 0.43), (0.94, 0.43)]); $0.line([(0.44, 0.07), (0.08, 0.43), (0.44, 0.79)]) }
        g["arrow.up"] = Glyph(width: 0.86, height: 1) { $0.line([(0.43, 0.08), (0.43, 0.94)]); $0.line([(0.07, 0.44), (0.43, 0.08), (0.79, 0.44)]) }
        g["arrow.down"] = Glyph(width: 0.86, height: 1) { $0.line([(0.43, 0.06), (0.43, 0.92)]); $0.line([(0.07, 0.56), (0.43, 0.92), (0.79, 0.56)]) }
        g["ellipsis"] = Glyph(width: 1, height: 0.22) { pen in for x in [0.13, 0.5, 0.87] as [CGFloat] { pen.disc(x, 0.11, 0.1) } }
        g["info"] = Glyph(width: 0.4, height: 1) { pen in
            pen.disc(0.2, 0.1, 0.09)
            pen.line([(0.06, 0.38), (0.2, 0.38), (0.2, 0.92)])
            pen.line([(0.06, 0.92), (0.34, 0.92)])
        }
        g["line.3.horizontal"] = Glyph(width: 1, height: 0.7) { pen in for y in [0.06, 0.35, 0.64] as [CGFloat] { pen.line([(0.06, y), (0.94, y)]) } }
        g["star"] = Glyph(width: 1.06, height: 1.02) { pen in pen.line(star(), closed: true) }
        g["star.fill"] = Glyph(width: 1.06, height: 1.02) { pen in pen.polygon(star()) }
        g["heart"] = Glyph(width: 1.1, height: 0.98) { pen in pen.path(filled: false, heart) }
        g["heart.fill"] = Glyph(width: 1.1, height: 0.98) { pen in pen.path(filled: true, heart); pen.path(filled: false, heart) }
        g["play.fill"] = Glyph(width: 0.86, height: 1) { $0.polygon([(0.12, 0.08), (0.8, 0.5), (0.12, 0.92)]) }
        g["play"] = Glyph(width: 0.86, height: 1) { $0.line([(0.12, 0.08), (0.8, 0.5), (0.12, 0.92)], closed: true) }
        g["pause.fill"] = Glyph(width: 0.8, height: 1) { pen in
            pen.roundedRect(0.08, 0.06, 0.22, 0.88, radius: 0.06, filled: true)
            pen.roundedRect(0.5, 0.06, 0.22, 0.88, radius: 0.06, filled: true)
        }
        g["pause"] = Glyph(width: 0.8, height: 1) { pen in pen.line([(0.19, 0.08), (0.19, 0.92)]); pen.line([(0.61, 0.08), (0.61, 0.92)]) }
        g["stop.fill"] = Glyph(width: 0.9, height: 0.9) { $0.roundedRect(0.05, 0.05, 0.8, 0.8, radius: 0.14, filled: true) }
        g["square"] = Glyph(width: 1, height: 1) { $0.roundedRect(0.04, 0.04, 0.92, 0.92, radius: 0.2, filled: false) }
        g["square.fill"] = Glyph(width: 1, height: 1) { $0.roundedRect(0.04, 0.04, 0.92, 0.92, radius: 0.2, filled: true) }
        g["magnifyingglass"] = Glyph(width: 1, height: 1) { pen in pen.ring(0.42, 0.42, 0.36); pen.line([(0.68, 0.68), (0.94, 0.94)]) }
        g["trash"] = Glyph(width: 0.9, height: 1.04) { pen in
            pen.line([(0.05, 0.2), (0.85, 0.2)])
            pen.line([(0.3, 0.2), (0.32, 0.06), (0.58, 0.06), (0.6, 0.2)])
            pen.line([(0.14, 0.2), (0.2, 0.98), (0.7, 0.98), (0.76, 0.2)])
        }
        g["square.and.arrow.up"] = Glyph(width: 0.86, height: 1.12) { pen in
            pen.line([(0.28, 0.42), (0.08, 0.42), (0.08, 1.06), (0.78, 1.06), (0.78, 0.42), (0.58, 0.42)])
            pen.line([(0.43, 0.06), (0.43, 0.7)])
            pen.line([(0.24, 0.24), (0.43, 0.06), (0.62, 0.24)])
        }
        g["house"] = Glyph(width: 1.12, height: 0.98) { pen in
            pen.line([(0.06, 0.5), (0.56, 0.06), (1.06, 0.5)])
            pen.line([(0.2, 0.38), (0.2, 0.92), (0.92, 0.92), (0.92, 0.38)])
        }
        g["house.fill"] = Glyph(width: 1.12, height: 0.98) { pen in
            pen.line([(0.06, 0.5), (0.56, 0.06), (1.06, 0.5)])
            pen.polygon([(0.2, 0.38), (0.56, 0.08), (0.92, 0.38), (0.92, 0.92), (0.2, 0.92)])
        }
        g["person"] = Glyph(width: 0.96, height: 1) { pen in pen.ring(0.48, 0.26, 0.22); pen.path(filled: false, shoulders) }
        g["person.fill"] = Glyph(width: 0.96, height: 1) { pen in pen.disc(0.48, 0.26, 0.22); pen.path(filled: true, shoulders); pen.path(filled: false, shoulders) }
        g["bell"] = Glyph(width: 0.94, height: 1.04) { pen in pen.path(filled: false, bell); pen.line([(0.38, 0.98), (0.56, 0.98)]) }
        g["bell.fill"] = Glyph(width: 0.94, height: 1.04) { pen in pen.path(filled: true, bell); pen.path(filled: false, bell); pen.line([(0.38, 0.98), (0.56, 0.98)]) }
        g["bookmark"] = Glyph(width: 0.76, height: 1) { $0.line([(0.08, 0.06), (0.68, 0.06), (0.68, 0.94), (0.38, 0.7), (0.08, 0.94)], closed: true) }
        g["bookmark.fill"] = Glyph(width: 0.76, height: 1) { $0.polygon([(0.08, 0.06), (0.68, 0.06), (0.68, 0.94), (0.38, 0.7), (0.08, 0.94)]) }
        g["envelope"] = Glyph(width: 1.14, height: 0.86) { pen in
            pen.roundedRect(0.02, 0.02, 1.1, 0.82, radius: 0.12, filled: false)
            pen.line([(0.12, 0.16), (0.57, 0.5), (1.02, 0.16)])
        }
        g["photo"] = Glyph(width: 1.14, height: 0.92) { pen in
            pen.roundedRect(0.02, 0.02, 1.1, 0.88, radius: 0.14, filled: false)
            pen.disc(0.36, 0.32, 0.09)
            pen.line([(0.12, 0.76), (0.42, 0.5), (0.6, 0.64), (0.8, 0.42), (1.02, 0.64)])
        }
        g["gearshape"] = Glyph(width: 1, height: 1) { pen in
            // Eight teeth round a wheel, and the hub.
            var outline: [(CGFloat, CGFloat)] = []
            for k in 0..<8 {
                let c = CGFloat(k) * .pi / 4
                let corners: [(radius: CGFloat, angle: CGFloat)] = [(0.36, c - 0.27), (0.46, c - 0.15), (0.46, c + 0.15), (0.36, c + 0.27)]
                for corner in corners { outline.append((0.5 + corner.radius * cos(corner.angle), 0.5 + corner.radius * sin(corner.angle))) }
            }
            pen.line(outline, closed: true)
            pen.ring(0.5, 0.5, 0.15)
        }
        g["gear"] = g["gearshape"]
        g["square.and.pencil"] = Glyph(width: 1.04, height: 1) { pen in
            pen.line([(0.52, 0.1), (0.14, 0.1), (0.06, 0.18), (0.06, 0.86), (0.14, 0.94), (0.82, 0.94), (0.9, 0.86), (0.9, 0.48)])
            pen.line([(0.42, 0.6), (0.48, 0.44), (0.86, 0.06), (0.98, 0.18), (0.6, 0.56), (0.42, 0.6)])
        }
        g["arrow.clockwise"] = Glyph(width: 0.92, height: 1.02) { pen in
            pen.path(filled: false) { path, p in
                let c = p(0.46, 0.56), r = p(0.4, 0).x - p(0, 0).x
                path.addArc(withCenter: c, radius: r, startAngle: -.pi / 2 + 0.5, endAngle: -.pi / 2, clockwise: false)
            }
            pen.line([(0.34, 0.04), (0.5, 0.16), (0.34, 0.28)])
        }
        g["camera"] = Glyph(width: 1.16, height: 0.9) { pen in
            pen.roundedRect(0.03, 0.18, 1.1, 0.69, radius: 0.14, filled: false)
            pen.line([(0.36, 0.18), (0.44, 0.04), (0.72, 0.04), (0.8, 0.18)])
            pen.ring(0.58, 0.52, 0.2)
        }
        g["book"] = Glyph(width: 1.16, height: 0.92) { pen in
            pen.line([(0.58, 0.16), (0.34, 0.06), (0.04, 0.06), (0.04, 0.8), (0.34, 0.8), (0.58, 0.88), (0.82, 0.8), (1.12, 0.8), (1.12, 0.06), (0.82, 0.06), (0.58, 0.16)], closed: true)
            pen.line([(0.58, 0.16), (0.58, 0.88)])
        }
        g["arrowshape.turn.up.left"] = Glyph(width: 1.04, height: 0.96) { pen in
            pen.line([(0.4, 0.06), (0.06, 0.38), (0.4, 0.7)])
            pen.path(filled: false) { path, p in
                path.move(to: p(0.06, 0.38))
                path.addLine(to: p(0.52, 0.38))
                path.addCurve(to: p(0.98, 0.9), controlPoint1: p(0.8, 0.38), controlPoint2: p(0.98, 0.56))
            }
        }
        g["folder"] = Glyph(width: 1.14, height: 0.9) { $0.line([(0.04, 0.1), (0.4, 0.1), (0.5, 0.22), (1.1, 0.22), (1.1, 0.84), (0.04, 0.84)], closed: true) }
        g["backward.fill"] = Glyph(width: 1.16, height: 0.8) { pen in
            pen.polygon([(0.56, 0.08), (0.08, 0.4), (0.56, 0.72)])
            pen.polygon([(1.08, 0.08), (0.6, 0.4), (1.08, 0.72)])
        }
        g["forward.fill"] = Glyph(width: 1.16, height: 0.8) { pen in
            pen.polygon([(0.08, 0.08), (0.56, 0.4), (0.08, 0.72)])
            pen.polygon([(0.6, 0.08), (1.08, 0.4), (0.6, 0.72)])
        }
        g["circle"] = Glyph(width: 1, height: 1) { $0.ring(0.5, 0.5, 0.5) }
        g["circle.fill"] = Glyph(width: 1, height: 1) { $0.disc(0.5, 0.5, 0.5) }
        g["paperplane"] = Glyph(width: 1, height: 1) { pen in
            pen.line([(0.06, 0.44), (0.94, 0.06), (0.56, 0.94), (0.44, 0.56)], closed: true)
            pen.line([(0.44, 0.56), (0.94, 0.06)])
        }
        return g
    }()

    /// Glyphs drawn inside a circle for `name.circle` and `name.circle.fill`: the glyph at this share of
    /// the circle's diameter.
    static let circled: [String: CGFloat] = [
        "plus": 0.5, "minus": 0.5, "xmark": 0.46, "checkmark": 0.5, "info": 0.5, "ellipsis": 0.56, "questionmark": 0.5,
        "chevron.right": 0.46, "chevron.left": 0.46, "chevron.down": 0.46, "chevron.up": 0.46, "arrow.right": 0.5, "arrow.left": 0.5,
        "arrow.up": 0.5, "arrow.down": 0.5, "play": 0.46, "play.fill": 0.46, "pause.fill": 0.42, "person": 0.52, "person.fill": 0.52,
        "exclamationmark": 0.5,
    ]

    static func star() -> [(CGFloat, CGFloat)] {
        (0..<10).map { k in
            let angle = -CGFloat.pi / 2 + CGFloat(k) * .pi / 5
            let r: CGFloat = k % 2 == 0 ? 0.48 : 0.2
            return (0.53 + r * cos(angle), 0.54 + r * sin(angle))
        }
    }

    static func heart(_ path: UIBezierPath, _ p: (CGFloat, CGFloat) -> CGPoint) {
        path.move(to: p(0.55, 0.92))
        path.addCurve(to: p(0.06, 0.34), controlPoint1: p(0.3, 0.72), controlPoint2: p(0.06, 0.56))
        path.addCurve(to: p(0.55, 0.2), controlPoint1: p(0.06, 0.04), controlPoint2: p(0.44, -0.02))
        path.addCurve(to: p(1.04, 0.34), controlPoint1: p(0.66, -0.02), controlPoint2: p(1.04, 0.04))
        path.addCurve(to: p(0.55, 0.92), controlPoint1: p(1.04, 0.56), controlPoint2: p(0.8, 0.72))
        path.close()
    }

    static func shoulders(_ path: UIBezierPath, _ p: (CGFloat, CGFloat) -> CGPoint) {
        path.move(to: p(0.06, 0.94))
        path.addCurve(to: p(0.9, 0.94), controlPoint1: p(0.06, 0.5), controlPoint2: p(0.9, 0.5))
        path.close()
    }

    static func bell(_ path: UIBezierPath, _ p: (CGFloat, CGFloat) -> CGPoint) {
        path.move(to: p(0.06, 0.82))
        path.addLine(to: p(0.16, 0.66))
        path.addLine(to: p(0.16, 0.42))
        path.addCurve(to: p(0.78, 0.42), controlPoint1: p(0.16, 0.02), controlPoint2: p(0.78, 0.02))
        path.addLine(to: p(0.78, 0.66))
        path.addLine(to: p(0.88, 0.82))
        path.close()
    }

    /// The glyph for `name`, with its circled variants; nil for a name not drawn here.
    static func glyph(_ name: String) -> (glyph: Glyph, circle: (fill: Bool, share: CGFloat)?)? {
        if let glyph = glyphs[name] { return (glyph, nil) }
        for (suffix, fill) in [(".circle.fill", true), (".circle", false)] where name.hasSuffix(suffix) {
            let inner = String(name.dropLast(suffix.count))
            if let share = circled[inner], let glyph = glyphs[inner] ?? drawnLetter(inner) { return (glyph, (fill, share)) }
        }
        return nil
    }

    /// Glyphs drawn only inside circles.
    static func drawnLetter(_ name: String) -> Glyph? {
        switch name {
        case "questionmark":
            Glyph(width: 0.6, height: 1) { pen in
                pen.path(filled: false) { path, p in
                    path.move(to: p(0.06, 0.3))
                    path.addCurve(to: p(0.3, 0.62), controlPoint1: p(0.06, -0.04), controlPoint2: p(0.62, 0.02))
                    path.addLine(to: p(0.3, 0.7))
                }
                pen.disc(0.3, 0.9, 0.08)
            }
        case "exclamationmark":
            Glyph(width: 0.3, height: 1) { pen in pen.line([(0.15, 0.06), (0.15, 0.66)]); pen.disc(0.15, 0.9, 0.08) }
        default: nil
        }
    }

    /// The image's pixels for `name` drawn with `configuration` in black at the main screen's scale; a
    /// name not drawn here gets a placeholder box (noted).
    static func draw(_ name: String, _ configuration: UIImage.SymbolConfiguration) -> Bitmap? {
        let size = configuration.resolvedPointSize * configuration.scaleFactor
        let stroke = max(0.5, configuration.resolvedPointSize * configuration.strokeRatio)
        let found = glyph(name)
        if found == nil { NotDrawn.note("UIImage(systemName: \"\(name)\") (not among the symbols drawn here: a placeholder box)") }
        let glyph = found?.glyph ?? Glyph(width: 0.9, height: 1) { $0.roundedRect(0.04, 0.04, 0.82, 0.92, radius: 0.16, filled: false) }
        let circle = found?.circle
        let box = circle == nil ? CGSize(width: glyph.width * size, height: glyph.height * size) : CGSize(width: 1.1 * size, height: 1.1 * size)
        // Whole pixels, and room for the strokes' round ends.
        let scale = UIScreen.main.scale
        let pad = stroke / 2
        let canvas = CGSize(width: ((box.width + 2 * pad) * scale).rounded(.up) / scale, height: ((box.height + 2 * pad) * scale).rounded(.up) / scale)
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        func render(_ body: () -> Void) -> Bitmap? {
            UIGraphicsImageRenderer(size: canvas, format: format).image { _ in
                UIColor.black.set()
                body()
            }.bitmap
        }
        let origin = CGPoint(x: (canvas.width - box.width) / 2, y: (canvas.height - box.height) / 2)
        guard let circle else { return render { glyph.draw(Pen(unit: size, stroke: stroke, origin: origin)) } }
        let diameter = 1.1 * size
        let inner = circle.share * diameter / max(glyph.width, glyph.height)
        let innerPen = Pen(unit: inner, stroke: stroke, origin: CGPoint(x: origin.x + (diameter - glyph.width * inner) / 2,
                                                                         y: origin.y + (diameter - glyph.height * inner) / 2))
        let ringPen = Pen(unit: diameter, stroke: stroke, origin: origin)
        guard circle.fill else { return render { ringPen.ring(0.5, 0.5, 0.5); glyph.draw(innerPen) } }
        // The disc with the glyph cut out: the disc's alpha times what the glyph leaves.
        guard var disc = render({ ringPen.disc(0.5, 0.5, 0.5) }), let cut = render({ glyph.draw(innerPen) }) else { return nil }
        cut.withUnsafePixels { cutPixels in
            disc.withUnsafeMutablePixels { pixels in
                for i in pixels.indices {
                    let keep = 255 - UInt32(PremultipliedRGBA8(packed: cutPixels[i]).a)
                    let a = (UInt32(PremultipliedRGBA8(packed: pixels[i]).a) * keep + 127) / 255
                    pixels[i] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: UInt8(a)).packed
                }
            }
        }
        return disc
    }
}
