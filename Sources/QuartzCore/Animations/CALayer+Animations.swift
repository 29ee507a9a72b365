internal import Motion
internal import RasterCore
internal import SnapshotView

/// An explicit animation added to a layer: its key, when it began (media time), what it overrides.
final class RunningAnimation {
    let key: String
    let animation: CAAnimation
    let begin: Double
    var overrideTokens: [Int] = []
    var transaction: CATransaction.Frame?
    var stopped = false

    init(key: String, animation: CAAnimation, begin: Double) {
        self.key = key
        self.animation = animation
        self.begin = begin
    }

    /// The values shown at media time `time`, by key path; empty when the animation shows nothing then.
    func values(at time: Double, for layer: CALayer) -> [(keyPath: String, value: Any)] {
        let local = time - begin
        let fill = animation.fillMode
        if local < 0 {
            return fill == .backwards || fill == .both ? animation.values(at: 0, for: layer) : []
        }
        let active = animation.activeDuration
        if local >= active {
            guard !animation.isRemovedOnCompletion, fill == .forwards || fill == .both else { return [] }
            return animation.values(at: active, for: layer)
        }
        return animation.values(at: local, for: layer)
    }
}

extension CALayer {
    /// The key paths whose values show as a view property, and the property.
    static func viewProperty(for keyPath: String) -> ViewProperty? {
        switch keyPath {
        case "opacity": .alpha
        case "position", "position.x", "position.y": .center
        case "bounds", "bounds.size", "bounds.size.width", "bounds.size.height", "bounds.origin", "bounds.origin.x", "bounds.origin.y": .bounds
        case "cornerRadius": .cornerRadius
        case "borderWidth": .borderWidth
        case "backgroundColor": .backgroundColor
        case "borderColor": .borderColor
        default: keyPath == "transform" || keyPath.hasPrefix("transform.") ? .transform : nil
        }
    }

    func addExplicit(_ anim: CAAnimation, forKey key: String?) {
        let name = key ?? "animation-\(ObjectIdentifier(anim).hashValue)"
        if let old = explicitAnimations.first(where: { $0.key == name }) { stop(old, finished: false) }
        let transaction = CATransaction.animationAdded()
        if anim.timingFunction == nil { anim.timingFunction = CATransaction.current.timingFunction }
        guard let engine = StageContext.engine else {
            // No clock: it starts and ends at once.
            anim.delegate?.animationDidStart(anim)
            anim.delegate?.animationDidStop(anim, finished: true)
            transaction.pending -= 1
            transaction.settle()
            return
        }
        let begin = anim.beginTime > 0 ? anim.beginTime : engine.currentTime
        let running = RunningAnimation(key: name, animation: anim, begin: begin)
        running.transaction = transaction
        explicitAnimations.append(running)
        var properties = Set<ViewProperty>()
        for keyPath in Self.keyPaths(of: anim) {
            if let property = Self.viewProperty(for: keyPath) { properties.insert(property) } else if !contentKeyPaths.contains(keyPath) && !Self.shadowKeyPaths.contains(keyPath) {
                NotDrawn.note("CAAnimation of \"\(keyPath)\" (not shown)")
            }
        }
        // A transform shows through both of the view's transforms (the flat one and the 3-D one).
        if properties.contains(.transform) { properties.insert(.transform3D) }
        for property in properties {
            let token = engine.addOverride(for: property, of: backing) { [weak self, weak running] time in
                guard let self, let running else { return nil }
                return self.shown(property, by: running, at: time)
            }
            running.overrideTokens.append(token)
        }
        engine.schedule(at: begin) { [weak running] in
            guard let running, !running.stopped else { return }
            anim.delegate?.animationDidStart(anim)
        }
        let end = begin + anim.activeDuration
        if end.isFinite {
            engine.schedule(at: end) { [weak self, weak running] in
                guard let self, let running, !running.stopped else { return }
                self.finish(running)
            }
        }
    }


    /// The animation reached its end: the delegate hears it finished; it goes unless kept.
    private func finish(_ running: RunningAnimation) {
        if running.animation.isRemovedOnCompletion { detach(running) }
        running.animation.delegate?.animationDidStop(running.animation, finished: true)
        settleTransaction(of: running)
    }

    /// Removed before its end (or kept after it and removed now).
    func stop(_ running: RunningAnimation, finished: Bool) {
        let ended = running.stopped
        detach(running)
        guard !ended else { return }
        running.stopped = true
        running.animation.delegate?.animationDidStop(running.animation, finished: finished)
        settleTransaction(of: running)
    }

    private func detach(_ running: RunningAnimation) {
        explicitAnimations.removeAll { $0 === running }
        for token in running.overrideTokens { StageContext.engine?.removeOverride(token) }
        running.overrideTokens = []
        if running.animation.isRemovedOnCompletion { running.stopped = true }
    }

    private func settleTransaction(of running: RunningAnimation) {
        guard let frame = running.transaction else { return }
        running.transaction = nil
        frame.pending -= 1
        frame.settle()
    }

    // MARK: Implicit animations

    /// Makes `change` to the properties `keys` name and, as Core Animation does for a layer of its own
    /// (not a view's) that is already on screen, animates each that changed from what it showed to its
    /// new value with the key's action (``action(forKey:)``: 0.25 s by default), unless the transaction
    /// disables actions.
    func implicitly(_ keys: [String], _ change: () -> Void) {
        guard owningView == nil, let engine = StageContext.engine, superlayer != nil, attachedAt < engine.currentTime,
              !CATransaction.disableActions() else {
            change()
            return
        }
        let shown = presentation()
        let before = keys.map { key in (key, shown?.modelValue(forKeyPath: key) ?? modelValue(forKeyPath: key), modelValue(forKeyPath: key)) }
        change()
        for (key, from, oldModel) in before where !AnimationValue.same(oldModel, modelValue(forKeyPath: key)) {
            runAction(forKey: key, from: from)
        }
    }

    /// Runs the action for `key` after a change, from `from` (what the layer showed).
    func runAction(forKey key: String, from: Any?) {
        guard let action = action(forKey: key) else { return }
        if let basic = action as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil {
            basic.fromValue = from
        }
        action.run(forKey: key, object: self, arguments: nil)
    }

    /// A content key's implicit animation (a shape layer's path or fill), after it changed from `old`.
    func contentChanged(_ key: String, from old: Any?) {
        guard owningView == nil, let engine = StageContext.engine, superlayer != nil, attachedAt < engine.currentTime,
              !CATransaction.disableActions(), !AnimationValue.same(old, modelValue(forKeyPath: key)) else { return }
        runAction(forKey: key, from: presentedContentValue(forKeyPath: key) ?? old)
    }

    /// Every key path `animation` animates (a group's members').
    static func keyPaths(of animation: CAAnimation) -> [String] {
        if let property = animation as? CAPropertyAnimation { return property.keyPath.map { [$0] } ?? [] }
        if let group = animation as? CAAnimationGroup { return (group.animations ?? []).flatMap(keyPaths(of:)) }
        return []
    }

    /// The value of a content key path shown now (a shape layer's `path`): the last explicit animation's
    /// that shows one, else nil.
    func presentedContentValue(forKeyPath keyPath: String) -> Any? {
        let now = StageContext.now
        for running in explicitAnimations.reversed() {
            if let value = running.values(at: now, for: self).last(where: { $0.keyPath == keyPath })?.value { return value }
        }
        return nil
    }

    // MARK: Values

    /// The model value at `keyPath`, as an animation mixes it (`CGFloat`, `CGPoint`, `CGRect`, …).
    func modelValue(forKeyPath keyPath: String) -> Any? {
        switch keyPath {
        case "opacity": return CGFloat(opacity)
        case "position": return position
        case "position.x": return position.x
        case "position.y": return position.y
        case "bounds": return bounds
        case "bounds.size": return bounds.size
        case "bounds.size.width": return bounds.width
        case "bounds.size.height": return bounds.height
        case "bounds.origin": return bounds.origin
        case "cornerRadius": return cornerRadius
        case "borderWidth": return borderWidth
        case "backgroundColor": return backgroundColor
        case "borderColor": return borderColor
        case "shadowColor": return shadowColor
        case "shadowOpacity": return CGFloat(shadowOpacity)
        case "shadowOffset": return shadowOffset
        case "shadowRadius": return shadowRadius
        case "shadowPath": return shadowPath
        case "transform": return transform
        case "transform.scale", "transform.scale.x": return AnimationValue.Decomposed(transform).sx
        case "transform.scale.y": return AnimationValue.Decomposed(transform).sy
        case "transform.rotation", "transform.rotation.z": return AnimationValue.Decomposed(transform).angle
        case "transform.rotation.x": return CGFloat(Self.decomposition(of: transform).rotation.x)
        case "transform.rotation.y": return CGFloat(Self.decomposition(of: transform).rotation.y)
        case "transform.translation.z": return CGFloat(transform.m43)
        case "transform.scale.z": return CGFloat(Self.decomposition(of: transform).scale.z)
        case "transform.translation.x": return AnimationValue.Decomposed(transform).tx
        case "transform.translation.y": return AnimationValue.Decomposed(transform).ty
        case "transform.translation": return CGSize(width: AnimationValue.Decomposed(transform).tx, height: AnimationValue.Decomposed(transform).ty)
        default: return contentModelValue(forKeyPath: keyPath)
        }
    }

    /// What `running` shows for `property` at `time`, from the key paths that map to it (nil: none).
    private func shown(_ property: ViewProperty, by running: RunningAnimation, at time: Double) -> AnimatableValue? {
        // Transform key paths show through both transforms of the view.
        let asked: ViewProperty = property == .transform3D ? .transform : property
        let values = running.values(at: time, for: self).filter { Self.viewProperty(for: $0.keyPath) == asked }
        guard !values.isEmpty else { return nil }
        switch property {
        case .alpha:
            return values.last.flatMap { AnimationValue.number($0.value) }.map { .double(min(1, max(0, $0))) }
        case .cornerRadius, .borderWidth:
            return values.last.flatMap { AnimationValue.number($0.value) }.map { .double(max(0, $0)) }
        case .backgroundColor, .borderColor:
            return values.last.flatMap { AnimationValue.color($0.value) }.map { .color($0.color) }
        case .center:
            var p = position
            for (keyPath, value) in values {
                switch keyPath {
                case "position": if let v = AnimationValue.point(value) { p = v }
                case "position.x": if let v = AnimationValue.number(value) { p.x = CGFloat(v) }
                default: if let v = AnimationValue.number(value) { p.y = CGFloat(v) }
                }
            }
            let s = bounds.size
            return .point(Point(x: Double(p.x) - (Double(anchorPoint.x) - 0.5) * s.width, y: Double(p.y) - (Double(anchorPoint.y) - 0.5) * s.height))
        case .bounds:
            var b = bounds
            for (keyPath, value) in values {
                switch keyPath {
                case "bounds": if let v = AnimationValue.rect(value) { b = v }
                case "bounds.size": if let v = AnimationValue.size(value) { b.size = v }
                case "bounds.size.width": if let v = AnimationValue.number(value) { b.size.width = CGFloat(v) }
                case "bounds.size.height": if let v = AnimationValue.number(value) { b.size.height = CGFloat(v) }
                case "bounds.origin": if let v = AnimationValue.point(value) { b.origin = v }
                case "bounds.origin.x": if let v = AnimationValue.number(value) { b.origin.x = CGFloat(v) }
                default: if let v = AnimationValue.number(value) { b.origin.y = CGFloat(v) }
                }
            }
            return .rect(b.standardized.rect)
        case .transform, .transform3D:
            guard let shown = shownTransform(values) else { return nil }
            let (flat, deep) = drawnTransforms(of: shown)
            guard flat.isFinite, deep.isFinite else { return nil }
            return property == .transform ? .transform(flat) : .transform3D(deep)
        case .backdrop:
            // No layer key path animates a backdrop (a visual effect view's `effect` does, through UIKit).
            return nil
        }
    }

    /// Key paths of a transform's parts that only a 3-D decomposition holds.
    private static let depthKeyPaths: Set<String> = ["transform.rotation.x", "transform.rotation.y", "transform.translation.z", "transform.scale.z"]

    /// The 3-D decomposition of `t` (the identity's when it has none).
    static func decomposition(of t: CATransform3D) -> Transform3DDecomposition {
        Transform3DDecomposition(t.transform3D) ?? Transform3DDecomposition()
    }

    /// The layer transform that `values` (of transform key paths, in order) show over the model's: a whole
    /// `transform` replaces it; a part (`transform.rotation.y`, `transform.scale`…) replaces that part of
    /// it. Parts of an affine transform in the screen's plane keep the flat decomposition; parts about
    /// x or y, or of a transform with perspective, are parts of the 3-D decomposition (a rotation part
    /// replaces the whole rotation: one axis at a time).
    private func shownTransform(_ values: [(keyPath: String, value: Any)]) -> CATransform3D? {
        var base = transform
        var parts: [(keyPath: String, value: Any)] = []
        for entry in values {
            if entry.keyPath == "transform" {
                if let whole = AnimationValue.transform(entry.value) { base = whole; parts = [] }
            } else {
                parts.append(entry)
            }
        }
        guard !parts.isEmpty else { return base }
        if CATransform3DIsAffine(base), !parts.contains(where: { Self.depthKeyPaths.contains($0.keyPath) }) {
            var d = AnimationValue.Decomposed(base)
            for (keyPath, value) in parts {
                if keyPath == "transform.translation", let v = AnimationValue.size(value) { d.tx = v.width; d.ty = v.height; continue }
                guard let v = AnimationValue.number(value).map({ CGFloat($0) }) else { continue }
                switch keyPath {
                case "transform.scale": d.sx = v; d.sy = v
                case "transform.scale.x": d.sx = v
                case "transform.scale.y": d.sy = v
                case "transform.rotation", "transform.rotation.z": d.angle = v
                case "transform.translation.x": d.tx = v
                case "transform.translation.y": d.ty = v
                default: NotDrawn.note("CAAnimation of \"\(keyPath)\" (not shown)")
                }
            }
            return d.transform
        }
        var d = Self.decomposition(of: base)
        for (keyPath, value) in parts {
            if keyPath == "transform.translation", let v = AnimationValue.size(value) {
                d.translation.x = Double(v.width); d.translation.y = Double(v.height); continue
            }
            guard let v = AnimationValue.number(value) else { continue }
            switch keyPath {
            case "transform.scale": d.scale = SIMD3(repeating: v)
            case "transform.scale.x": d.scale.x = v
            case "transform.scale.y": d.scale.y = v
            case "transform.scale.z": d.scale.z = v
            case "transform.rotation", "transform.rotation.z": d.rotation = SIMD3(0, 0, v)
            case "transform.rotation.x": d.rotation = SIMD3(v, 0, 0)
            case "transform.rotation.y": d.rotation = SIMD3(0, v, 0)
            case "transform.translation.x": d.translation.x = v
            case "transform.translation.y": d.translation.y = v
            case "transform.translation.z": d.translation.z = v
            default: NotDrawn.note("CAAnimation of \"\(keyPath)\" (not shown)")
            }
        }
        return CATransform3D(d.transform)
    }
}
