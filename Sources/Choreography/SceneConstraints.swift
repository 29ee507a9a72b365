internal import ConstraintSolver
import BoundedInput
import Foundation
import RasterCore
import Typesetting

/// Constraints in scene files: a view may say where its subviews go the way the screen is built, as
/// strings such as `"card.leading == self.leading + 16"` or `"caption.top >= card.bottom + 8 @750"`,
/// instead of frames. A view named in a constraint that has no `frame` of its own is laid out by the
/// constraints; one with a `frame` keeps it (as a view that translates its autoresizing mask does in
/// UIKit). They are solved by Auto Layout's solver when the file is read, so every tool sees frames.
extension SceneDocument {
    /// One constraint as written: `first.attribute relation [multiplier *] second.attribute [± constant]
    /// [@priority]`, or `first.attribute relation constant [@priority]` for a width or height.
    public struct ConstraintSpec: Sendable, Equatable {
        public enum Attribute: String, Sendable, CaseIterable {
            case left, right, top, bottom, leading, trailing, width, height, centerX, centerY, firstBaseline, lastBaseline
            var isVertical: Bool { [.top, .bottom, .height, .centerY, .firstBaseline, .lastBaseline].contains(self) }
            var isDimension: Bool { self == .width || self == .height }
        }
        public enum Relation: String, Sendable { case equal = "==", lessThanOrEqual = "<=", greaterThanOrEqual = ">=" }

        /// `self` (the view that declares the constraint) or the name of one of its subviews, at any depth.
        public var firstItem: String
        public var firstAttribute: Attribute
        public var relation: Relation
        public var secondItem: String?
        public var secondAttribute: Attribute?
        public var multiplier = 1.0
        /// Points.
        public var constant = 0.0
        /// 1…1000; 1000 (the default) is required.
        public var priority = 1000.0

        /// A constraint with every part given (written out so that the package's tests can call it).
        package init(firstItem: String, firstAttribute: Attribute, relation: Relation, secondItem: String? = nil, secondAttribute: Attribute? = nil,
                     multiplier: Double = 1.0, constant: Double = 0.0, priority: Double = 1000.0) {
            self.firstItem = firstItem
            self.firstAttribute = firstAttribute
            self.relation = relation
            self.secondItem = secondItem
            self.secondAttribute = secondAttribute
            self.multiplier = multiplier
            self.constant = constant
            self.priority = priority
        }

        /// Parses one constraint string; the error says what is wrong where.
        package static func parse(_ text: String) -> Result<ConstraintSpec, ConstraintSyntaxError> {
            var scanner = ConstraintScanner(Array(text))
            return Result { () throws(ConstraintSyntaxError) in try scanner.constraint() }
        }
    }

    package struct ConstraintSyntaxError: Error {
        let reason: String
    }
}

/// The constraint grammar, read left to right.
private struct ConstraintScanner {
    let characters: [Character]
    var at = 0
    init(_ characters: [Character]) { self.characters = characters }

    mutating func skipSpaces() { while at < characters.count, characters[at] == " " { at += 1 } }

    mutating func accept(_ text: String) -> Bool {
        skipSpaces()
        let chars = Array(text)
        guard at + chars.count <= characters.count, Array(characters[at..<(at + chars.count)]) == chars else { return false }
        at += chars.count
        return true
    }

    func fail(_ reason: String) -> SceneDocument.ConstraintSyntaxError {
        .init(reason: "\(reason) at character \(at + 1); a constraint reads like \"card.top == self.top + 20\" or \"card.width == 120 @750\"")
    }

    mutating func number() -> Double? {
        skipSpaces()
        let start = at
        if at < characters.count, characters[at] == "-" || characters[at] == "+" { at += 1 }
        while at < characters.count, characters[at].isNumber || characters[at] == "." { at += 1 }
        guard at > start, let value = Double(String(characters[start..<at])), value.isFinite else { at = start; return nil }
        return value
    }

    /// `item.attribute`.
    mutating func anchor() throws(SceneDocument.ConstraintSyntaxError) -> (String, SceneDocument.ConstraintSpec.Attribute)? {
        skipSpaces()
        let start = at
        // A view's name: anything up to the dot but spaces and the grammar's own signs (a hyphen is a
        // name's, as in "note-card"; a minus sign comes only after an anchor).
        while at < characters.count, characters[at] != ".", characters[at] != " ", !"=<>*+@".contains(characters[at]) { at += 1 }
        guard at > start, at < characters.count, characters[at] == "." else { at = start; return nil }
        let item = String(characters[start..<at])
        at += 1
        let nameStart = at
        while at < characters.count, characters[at].isLetter { at += 1 }
        let name = String(characters[nameStart..<at])
        guard let attribute = SceneDocument.ConstraintSpec.Attribute(rawValue: name) else {
            let known = SceneDocument.ConstraintSpec.Attribute.allCases.map(\.rawValue)
            throw SceneDocument.ConstraintSyntaxError(reason: "'\(name)' is not an attribute; use one of \(known.joined(separator: ", "))"
                + (closestName(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""))
        }
        return (item, attribute)
    }

    mutating func constraint() throws(SceneDocument.ConstraintSyntaxError) -> SceneDocument.ConstraintSpec {
        guard let (firstItem, firstAttribute) = try anchor() else { throw fail("expected item.attribute") }
        let relation: SceneDocument.ConstraintSpec.Relation
        if accept("==") { relation = .equal } else if accept("<=") { relation = .lessThanOrEqual } else if accept(">=") { relation = .greaterThanOrEqual } else {
            throw fail("expected ==, <= or >=")
        }
        var spec = SceneDocument.ConstraintSpec(firstItem: firstItem, firstAttribute: firstAttribute, relation: relation)
        let leading = number()
        var multiplied = false
        if let leading {
            if accept("*") {
                spec.multiplier = leading
                multiplied = true
            } else {
                skipSpaces()
                if at < characters.count, characters[at] != "@" { throw fail("expected * after \(leading) (or the end, for a constant)") }
            }
        }
        if let (item, attribute) = try anchor() {
            spec.secondItem = item
            spec.secondAttribute = attribute
            if accept("*") {
                guard !multiplied else { throw fail("a second multiplier") }
                guard let m = number() else { throw fail("expected a multiplier after *") }
                spec.multiplier = m
            }
            if accept("+") { guard let c = number() else { throw fail("expected a constant after +") }; spec.constant = c }
            else if accept("-") { guard let c = number() else { throw fail("expected a constant after -") }; spec.constant = -c }
        } else if let leading, spec.multiplier == 1, !(characters.count > at && characters[at] == "*") {
            spec.constant = leading
        } else {
            throw fail("expected item.attribute or a constant")
        }
        if accept("@") {
            guard let p = number(), (1...1000).contains(p) else { throw fail("expected a priority 1…1000 after @") }
            spec.priority = p
        }
        skipSpaces()
        guard at == characters.count else { throw fail("unexpected '\(characters[at])'") }
        if spec.secondItem == nil, !firstAttribute.isDimension {
            throw SceneDocument.ConstraintSyntaxError(reason: "only a width or height can equal a constant; relate \(firstAttribute.rawValue) to another view's attribute")
        }
        if let second = spec.secondAttribute {
            if firstAttribute.isDimension != second.isDimension {
                throw SceneDocument.ConstraintSyntaxError(reason: "\(firstAttribute.rawValue) and \(second.rawValue): a size relates only to a size, a position only to a position")
            }
            if !firstAttribute.isDimension, firstAttribute.isVertical != second.isVertical {
                throw SceneDocument.ConstraintSyntaxError(reason: "\(firstAttribute.rawValue) and \(second.rawValue) lie on different axes")
            }
        }
        guard spec.multiplier == 0 || (0.1...10).contains(abs(spec.multiplier)) else {
            throw SceneDocument.ConstraintSyntaxError(reason: "the multiplier must be 0 or within 0.1…10 (the range Auto Layout's solver keeps precise), got \(spec.multiplier)")
        }
        guard abs(spec.constant) <= Limits.scenePoints else {
            throw SceneDocument.ConstraintSyntaxError(reason: "the constant must be within ±\(Int(Limits.scenePoints)) points")
        }
        if spec.secondItem == nil, spec.constant < 0 {
            throw SceneDocument.ConstraintSyntaxError(reason: "a \(firstAttribute.rawValue) cannot be negative")
        }
        return spec
    }
}

/// Lays out a state's views by their constraints: one solver for the state, as a window has one engine.
package struct SceneLayout {
    typealias Path = [Int]
    struct Box { let x: Variable, y: Variable, width: Variable, height: Variable }

    /// At most this many constraints a state: a file at the size limit solves in seconds.
    static let maximumConstraints = 4000

    let solver = Solver()
    var boxes: [Path: Box] = [:]
    /// Views laid out by constraints (named in one, no frame of their own), and the first constraint
    /// naming each (where an ambiguity is reported).
    var laidOut: [Path: (state: Path, index: Int)] = [:]
    var wrapping: [Path: (handles: [ConstraintHandle?], height: Double)] = [:]
    let canvas: Size

    /// The spec at `path` under `root`.
    static func spec(_ root: SceneDocument.ViewSpec, _ path: Path) -> SceneDocument.ViewSpec {
        path.reduce(root) { $0.subviews[$1] }
    }

    /// Solves the constraints under `root` (a state's root, filling `canvas`) and writes the frames of the
    /// views they lay out. `fail(path, index, reason)` is the error at the constraint `index` of the view at `path`.
    static func solve(_ root: inout SceneDocument.ViewSpec, canvas: Size,
                      fail: (Path, Int, String) -> DocumentError) throws(DocumentError) {
        var declarations: [(Path, SceneDocument.ViewSpec)] = []
        var names: [String: Path] = [:]
        func visit(_ spec: SceneDocument.ViewSpec, _ path: Path) {
            if let name = spec.name { names[name] = path }
            if !spec.constraints.isEmpty { declarations.append((path, spec)) }
            for (i, child) in spec.subviews.enumerated() { visit(child, path + [i]) }
        }
        visit(root, [])
        guard !declarations.isEmpty else { return }
        if let shadowed = names["self"] {
            throw fail(declarations[0].0, 0, "a view is named 'self' (at subviews path \(shadowed.map(String.init).joined(separator: "."))); in constraints 'self' is the view that declares them: rename it")
        }
        let count = declarations.reduce(0) { $0 + $1.1.constraints.count }
        guard count <= SceneLayout.maximumConstraints else {
            throw fail(declarations[0].0, 0, "\(count) constraints in this state; at most \(SceneLayout.maximumConstraints) are solved")
        }
        var layout = SceneLayout(canvas: canvas)
        // Who is laid out by constraints: named items without a frame of their own.
        for (path, spec) in declarations {
            for (index, c) in spec.constraints.enumerated() {
                for item in [c.firstItem] + (c.secondItem.map { [$0] } ?? []) where item != "self" {
                    guard let itemPath = names[item] else {
                        throw fail(path, index, "no view named '\(item)' in this state" + (closestName(to: item, among: Array(names.keys)).map { "; did you mean '\($0)'?" } ?? ""))
                    }
                    guard itemPath.starts(with: path), itemPath != path else {
                        throw fail(path, index, "'\(item)' is not one of the subviews of the view that declares the constraint (declare it on a view that contains both)")
                    }
                    if !SceneLayout.spec(root, itemPath).frameWritten, layout.laidOut[itemPath] == nil { layout.laidOut[itemPath] = (path, index) }
                }
            }
        }
        for (path, spec) in declarations {
            for (index, c) in spec.constraints.enumerated() {
                let first = c.firstItem == "self" ? path : names[c.firstItem]!
                var expression = layout.attribute(c.firstAttribute, of: first, in: path, root: root)
                if let secondItem = c.secondItem, let secondAttribute = c.secondAttribute {
                    let second = layout.attribute(secondAttribute, of: secondItem == "self" ? path : names[secondItem]!, in: path, root: root)
                    expression.terms += second.terms.map { Term($0.variable, -c.multiplier * $0.coefficient) }
                    expression.constant -= c.multiplier * second.constant
                }
                expression.constant -= c.constant
                let relation: Relation = switch c.relation {
                case .equal: .equal
                case .lessThanOrEqual: .lessThanOrEqual
                case .greaterThanOrEqual: .greaterThanOrEqual
                }
                let strength = c.priority >= 1000 ? Strength.required : pow(2, c.priority / 50)
                do { try layout.solver.addConstraint(expression, relation, strength: strength) } catch {
                    throw fail(path, index, "this required constraint contradicts the ones before it or a frame the file gives (a view with a frame keeps it; a state's root fills the canvas)")
                }
            }
        }
        layout.settleWrappingLabels(root)
        // Every view laid out by constraints must be fixed by them: an ambiguous scene renders differently
        // with the smallest change.
        for (path, first) in layout.laidOut.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let box = layout.box(path, root: root)
            for (variable, what) in [(box.x, "x (give it a leading, trailing or centerX constraint)"), (box.y, "y (give it a top, bottom or centerY constraint)"),
                                     (box.width, "width"), (box.height, "height")] where layout.solver.isAmbiguous(variable) {
                let name = SceneLayout.spec(root, path).name ?? "?"
                throw fail(first.state, first.index, "the layout of '\(name)' is ambiguous: nothing fixes its \(what)")
            }
        }
        for (path, first) in layout.laidOut.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let b = layout.box(path, root: root)
            let (x, y) = (layout.solver.value(of: b.x), layout.solver.value(of: b.y))
            let (width, height) = (layout.solver.value(of: b.width), layout.solver.value(of: b.height))
            let name = SceneLayout.spec(root, path).name ?? "?"
            // Rounding leaves -1e-12 where the answer is 0; a real negative size is the constraints' fault.
            guard width > -1e-6, height > -1e-6 else {
                throw fail(first.state, first.index, "the constraints give '\(name)' a negative size (\(width) × \(height) points)")
            }
            guard [x, y, width, height].allSatisfy({ abs($0) <= Limits.scenePoints }) else {
                throw fail(first.state, first.index, "the constraints place '\(name)' beyond ±\(Int(Limits.scenePoints)) points")
            }
            write(Rect(x: x, y: y, width: max(0, width), height: max(0, height)), at: path, in: &root)
        }
    }

    private static func write(_ frame: Rect, at path: Path, in spec: inout SceneDocument.ViewSpec) {
        guard let first = path.first else { spec.frame = frame; return }
        write(frame, at: Array(path.dropFirst()), in: &spec.subviews[first])
    }

    /// The variables of the view at `path`, made on first use: held at its frame unless constraints lay
    /// it out (then a label holds its text's size at hugging 250 and compression resistance 750).
    mutating func box(_ path: Path, root: SceneDocument.ViewSpec) -> Box {
        if let box = boxes[path] { return box }
        let box = Box(x: solver.makeVariable(), y: solver.makeVariable(), width: solver.makeVariable(), height: solver.makeVariable())
        boxes[path] = box
        let spec = SceneLayout.spec(root, path)
        let held: Rect? = path.isEmpty ? Rect(x: 0, y: 0, width: canvas.width, height: canvas.height) : laidOut[path] == nil ? spec.frame : nil
        if let held {
            for (variable, value) in [(box.x, held.minX), (box.y, held.minY), (box.width, held.width), (box.height, held.height)] {
                _ = try? solver.addConstraint(LinearExpression([Term(variable)], constant: -value), .equal)
            }
        } else if spec.kind == .label, let size = SceneLayout.textSize(spec, width: nil) {
            var handles: [ConstraintHandle?] = []
            for (variable, value) in [(box.width, size.width), (box.height, size.height)] {
                handles.append(try? solver.addConstraint(LinearExpression([Term(variable)], constant: -value), .lessThanOrEqual, strength: pow(2, 5)))
                handles.append(try? solver.addConstraint(LinearExpression([Term(variable)], constant: -value), .greaterThanOrEqual, strength: pow(2, 15)))
            }
            if spec.lines != 1 { wrapping[path] = (Array(handles[2...]), size.height) }
        }
        return box
    }

    /// `attribute` of the view at `path` in the coordinates of the view at `space` (itself or an ancestor).
    mutating func attribute(_ attribute: SceneDocument.ConstraintSpec.Attribute, of path: Path, in space: Path,
                            root: SceneDocument.ViewSpec) -> LinearExpression {
        let b = box(path, root: root)
        var x: [Term] = [], y: [Term] = []
        if path != space {
            x = [Term(b.x)]; y = [Term(b.y)]
            var parent = Array(path.dropLast())
            while parent != space {
                let p = box(parent, root: root)
                x.append(Term(p.x)); y.append(Term(p.y))
                parent.removeLast()
            }
        }
        switch attribute {
        case .left, .leading: return LinearExpression(x)
        case .right, .trailing: return LinearExpression(x + [Term(b.width)])
        case .top: return LinearExpression(y)
        case .bottom: return LinearExpression(y + [Term(b.height)])
        case .width: return LinearExpression([Term(b.width)])
        case .height: return LinearExpression([Term(b.height)])
        case .centerX: return LinearExpression(x + [Term(b.width, 0.5)])
        case .centerY: return LinearExpression(y + [Term(b.height, 0.5)])
        case .firstBaseline, .lastBaseline:
            // A label's text is centred vertically in its frame; another view's baseline is its bottom.
            let spec = SceneLayout.spec(root, path)
            if spec.kind == .label, let layout = try? TextLayout(spec.text, style: SceneLayout.style(spec), width: .infinity, height: .infinity),
               let line = attribute == .firstBaseline ? layout.lines.first : layout.lines.last {
                return LinearExpression(y + [Term(b.height, 0.5)], constant: line.baseline - layout.size.height / 2)
            }
            return LinearExpression(y + [Term(b.height)])
        }
    }

    /// Multi-line labels take the height of their text at the width they were given, until it settles.
    mutating func settleWrappingLabels(_ root: SceneDocument.ViewSpec) {
        for _ in 0..<4 {
            var changed = false
            for (path, entry) in wrapping {
                guard let b = boxes[path] else { continue }
                let width = solver.value(of: b.width)
                guard let size = SceneLayout.textSize(SceneLayout.spec(root, path), width: max(1, width)), size.height != entry.height else { continue }
                for handle in entry.handles.compactMap({ $0 }) { try? solver.setConstant(-size.height, of: handle) }
                wrapping[path]!.height = size.height
                changed = true
            }
            if !changed { return }
        }
    }

    package static func style(_ spec: SceneDocument.ViewSpec) -> TextStyle {
        TextStyle(font: spec.font, color: spec.textColor, alignment: spec.alignment, numberOfLines: spec.lines, lineSpacing: spec.lineSpacing)
    }

    /// A label's text size (points, rounded up as a label's), on one line or wrapped at `width`.
    static func textSize(_ spec: SceneDocument.ViewSpec, width: Double?) -> Size? {
        guard !spec.text.isEmpty else { return Size(width: 0, height: 0) }
        return try? TextLayout.size(of: spec.text, style: style(spec), fitting: Size(width: width ?? .infinity, height: .infinity))
    }
}
