/// Where one cell or supplementary view of a collection view goes and how it looks, as UIKit's: frame
/// (centre and size), transforms, alpha, z-index, hidden. Points, in the collection view's content
/// coordinates.
open class UICollectionViewLayoutAttributes: NSObject, NSCopying {
    /// Whether the attributes are a cell's, a supplementary view's or a decoration view's.
    public enum Category: UInt, Sendable { case cell = 0, supplementaryView, decorationView }

    open var indexPath: IndexPath
    public let representedElementCategory: Category
    /// The kind of a supplementary view (`UICollectionView.elementKindSectionHeader`…); nil for a cell.
    public let representedElementKind: String?
    open var center = CGPoint.zero
    open var size = CGSize.zero
    open var transform = CGAffineTransform.identity
    open var transform3D = CATransform3DIdentity
    open var alpha: CGFloat = 1
    open var zIndex = 0
    open var isHidden = false

    /// The frame: `center` and `size` (setting it sets both).
    open var frame: CGRect {
        get { CGRect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height) }
        set {
            size = newValue.size
            center = CGPoint(x: newValue.midX, y: newValue.midY)
        }
    }

    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: size) }
        set { size = newValue.size }
    }

    public required init(forCellWith indexPath: IndexPath) {
        self.indexPath = indexPath
        representedElementCategory = .cell
        representedElementKind = nil
        super.init()
    }

    public required init(forSupplementaryViewOfKind elementKind: String, with indexPath: IndexPath) {
        self.indexPath = indexPath
        representedElementCategory = .supplementaryView
        representedElementKind = elementKind
        super.init()
    }

    public required init(forDecorationViewOfKind decorationViewKind: String, with indexPath: IndexPath) {
        self.indexPath = indexPath
        representedElementCategory = .decorationView
        representedElementKind = decorationViewKind
        super.init()
    }

    /// A copy of the same class (a subclass that adds properties overrides it and copies them too).
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy: UICollectionViewLayoutAttributes
        switch representedElementCategory {
        case .cell: copy = type(of: self).init(forCellWith: indexPath)
        case .supplementaryView: copy = type(of: self).init(forSupplementaryViewOfKind: representedElementKind ?? "", with: indexPath)
        case .decorationView: copy = type(of: self).init(forDecorationViewOfKind: representedElementKind ?? "", with: indexPath)
        }
        copy.center = center
        copy.size = size
        copy.transform = transform
        copy.transform3D = transform3D
        copy.alpha = alpha
        copy.zIndex = zIndex
        copy.isHidden = isHidden
        return copy
    }

    /// The attributes copied, typed.
    func duplicate() -> UICollectionViewLayoutAttributes { copy() as! UICollectionViewLayoutAttributes }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UICollectionViewLayoutAttributes else { return false }
        return indexPath == other.indexPath && representedElementCategory == other.representedElementCategory
            && representedElementKind == other.representedElementKind && center == other.center && size == other.size
            && transform == other.transform && alpha == other.alpha && zIndex == other.zIndex && isHidden == other.isHidden
    }
}

/// One change of a batch update, as a layout sees it in `prepare(forCollectionViewUpdates:)`.
open class UICollectionViewUpdateItem: NSObject {
    public enum Action: Int, Sendable { case insert = 0, delete, reload, move, none }
    /// The index path before the update (nil for an insert).
    public let indexPathBeforeUpdate: IndexPath?
    /// The index path after the update (nil for a delete).
    public let indexPathAfterUpdate: IndexPath?
    public let updateAction: Action

    init(before: IndexPath?, after: IndexPath?, action: Action) {
        indexPathBeforeUpdate = before
        indexPathAfterUpdate = after
        updateAction = action
    }
}

/// UIKit's abstract layout: a subclass computes where every element goes. The collection view calls
/// `prepare()` before it asks for attributes, after `invalidateLayout()` (a reload, an update, a change of
/// bounds the layout asks to be invalidated for).
open class UICollectionViewLayout: NSObject {
    /// The collection view the layout lays out.
    open internal(set) weak var collectionView: UICollectionView?

    public override init() { super.init() }
    public required init?(coder: NSCoder) { nil }

    /// The class of the attributes the layout makes.
    open class var layoutAttributesClass: AnyClass { UICollectionViewLayoutAttributes.self }

    /// Computes what the layout needs before attributes are asked for.
    open func prepare() {}
    /// Points: the size of everything the layout places.
    open var collectionViewContentSize: CGSize { .zero }
    /// The attributes of every element that overlaps `rect`.
    open func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? { nil }
    open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }
    open func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }
    open func layoutAttributesForDecorationView(ofKind elementKind: String, at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }

    /// Asks for `prepare()` again before the next layout pass.
    open func invalidateLayout() { collectionView?.layoutDidInvalidate() }
    /// Whether a new bounds (a scroll, a resize) calls for a new layout; the default: when the size changed.
    open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let collectionView else { return false }
        return newBounds.size != collectionView.bounds.size
    }

    /// Where a scroll that would stop at `proposedContentOffset` stops (a paging carousel snaps here).
    open func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint, withScrollingVelocity velocity: CGPoint) -> CGPoint {
        proposedContentOffset
    }
    open func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint) -> CGPoint { proposedContentOffset }

    // MARK: Updates

    /// Told of an update's changes before its animation.
    open func prepare(forCollectionViewUpdates updateItems: [UICollectionViewUpdateItem]) {}
    /// Told after the update's animation was set up.
    open func finalizeCollectionViewUpdates() {}
    /// Where an item arriving at `itemIndexPath` starts: the default is its final place, transparent.
    open func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard let attributes = layoutAttributesForItem(at: itemIndexPath)?.duplicate() else { return nil }
        attributes.alpha = 0
        return attributes
    }
    /// Where an item leaving from `itemIndexPath` ends: the default is where it was, transparent.
    open func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard let attributes = collectionView?.attributesBeforeUpdate(ofItemAt: itemIndexPath)?.duplicate() else { return nil }
        attributes.alpha = 0
        return attributes
    }
    open func initialLayoutAttributesForAppearingSupplementaryElement(ofKind elementKind: String, at elementIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard let attributes = layoutAttributesForSupplementaryView(ofKind: elementKind, at: elementIndexPath)?.duplicate() else { return nil }
        attributes.alpha = 0
        return attributes
    }
    open func finalLayoutAttributesForDisappearingSupplementaryElement(ofKind elementKind: String, at elementIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        nil
    }

    /// Told when the layout is about to be replaced by `setCollectionViewLayout` or has been.
    open func prepareForTransition(to newLayout: UICollectionViewLayout) {}
    open func prepareForTransition(from oldLayout: UICollectionViewLayout) {}
    open func finalizeLayoutTransition() {}
}

/// UIKit's flow layout: items in lines (rows when scrolling vertically, columns when scrolling
/// horizontally), each line filled with as many items as fit at `minimumInteritemSpacing`, the space left
/// shared evenly between them (a line of one item is centred), items centred across their line; lines
/// `minimumLineSpacing` apart, inside each section's `sectionInset`, a header and footer at their
/// reference sizes. The delegate (`UICollectionViewDelegateFlowLayout`) can size each item and space each
/// section.
///
/// What differs from UIKit: `estimatedItemSize` is kept, not used (items take `itemSize` or the
/// delegate's size); `sectionHeadersPinToVisibleBounds` is kept, headers scroll with their section.
open class UICollectionViewFlowLayout: UICollectionViewLayout {
    /// `estimatedItemSize` that asks for self-sizing cells (kept; see the type's notes).
    public static let automaticSize = CGSize(width: Double.greatestFiniteMagnitude, height: Double.greatestFiniteMagnitude)

    public enum SectionInsetReference: Int, Sendable { case fromContentInset = 0, fromSafeArea, fromLayoutMargins }

    /// Default vertical.
    open var scrollDirection = UICollectionView.ScrollDirection.vertical { didSet { invalidateLayout() } }
    /// Points; default 50 × 50.
    open var itemSize = CGSize(width: 50, height: 50) { didSet { invalidateLayout() } }
    open var estimatedItemSize = CGSize.zero
    /// Points between lines; default 10.
    open var minimumLineSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// Points between items of a line, at least; default 10.
    open var minimumInteritemSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// Points around each section's items; default zero.
    open var sectionInset = UIEdgeInsets.zero { didSet { invalidateLayout() } }
    open var sectionInsetReference = SectionInsetReference.fromContentInset { didSet { invalidateLayout() } }
    /// Points: a header's height (vertical) or width (horizontal); zero means none.
    open var headerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }
    open var footerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }
    open var sectionHeadersPinToVisibleBounds = false
    open var sectionFootersPinToVisibleBounds = false

    private var items: [[UICollectionViewLayoutAttributes]] = []
    private var headers: [UICollectionViewLayoutAttributes?] = []
    private var footers: [UICollectionViewLayoutAttributes?] = []
    private var contentSize = CGSize.zero

    public override init() { super.init() }
    public required init?(coder: NSCoder) { nil }

    private var flowDelegate: UICollectionViewDelegateFlowLayout? { collectionView?.delegate as? UICollectionViewDelegateFlowLayout }

    /// Lays out every section: lines of items filled greedily, the slack shared between the items.
    open override func prepare() {
        items = []
        headers = []
        footers = []
        guard let collectionView else { contentSize = .zero; return }
        let vertical = scrollDirection == .vertical
        let bounds = collectionView.bounds
        let reference: UIEdgeInsets
        switch sectionInsetReference {
        case .fromContentInset: reference = .zero
        case .fromSafeArea: reference = collectionView.safeAreaInsets
        case .fromLayoutMargins: reference = collectionView.layoutMargins
        }
        // Across: the extent items line up in; along: where the next line goes.
        let insets = collectionView.adjustedContentInset
        let across = vertical ? bounds.width - insets.left - insets.right : bounds.height - insets.top - insets.bottom
        var along: CGFloat = 0
        let attributesClass = (type(of: self).layoutAttributesClass as? UICollectionViewLayoutAttributes.Type) ?? UICollectionViewLayoutAttributes.self
        for section in 0..<collectionView.numberOfSections {
            let inset = flowDelegate?.collectionView(collectionView, layout: self, insetForSectionAt: section) ?? sectionInset
            let total = UIEdgeInsets(top: inset.top + (vertical ? 0 : reference.top), left: inset.left + (vertical ? reference.left : 0),
                                     bottom: inset.bottom + (vertical ? 0 : reference.bottom), right: inset.right + (vertical ? reference.right : 0))
            let lineSpacing = flowDelegate?.collectionView(collectionView, layout: self, minimumLineSpacingForSectionAt: section) ?? minimumLineSpacing
            let interitem = flowDelegate?.collectionView(collectionView, layout: self, minimumInteritemSpacingForSectionAt: section) ?? minimumInteritemSpacing
            let headerSize = flowDelegate?.collectionView(collectionView, layout: self, referenceSizeForHeaderInSection: section) ?? headerReferenceSize
            let footerSize = flowDelegate?.collectionView(collectionView, layout: self, referenceSizeForFooterInSection: section) ?? footerReferenceSize
            // The header.
            let headerExtent = vertical ? headerSize.height : headerSize.width
            if headerExtent > 0 {
                let header = attributesClass.init(forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader, with: IndexPath(item: 0, section: section))
                header.frame = vertical ? CGRect(x: 0, y: along, width: bounds.width, height: headerExtent)
                    : CGRect(x: along, y: 0, width: headerExtent, height: across)
                headers.append(header)
                along += headerExtent
            } else {
                headers.append(nil)
            }
            along += vertical ? total.top : total.left
            let lineStart = vertical ? total.left : total.top
            let lineEnd = across - (vertical ? total.right : total.bottom)
            var sectionItems: [UICollectionViewLayoutAttributes] = []
            let count = collectionView.numberOfItems(inSection: section)
            sectionItems.reserveCapacity(count)
            var sizes: [CGSize] = []
            sizes.reserveCapacity(count)
            for item in 0..<count {
                let ip = IndexPath(item: item, section: section)
                let size = flowDelegate?.collectionView(collectionView, layout: self, sizeForItemAt: ip) ?? itemSize
                sizes.append(CGSize(width: max(0, size.width.isFinite ? size.width : 0), height: max(0, size.height.isFinite ? size.height : 0)))
            }
            var first = 0
            var lineCount = 0
            while first < count {
                // As many items as fit, at least one.
                var end = first + 1
                var used = vertical ? sizes[first].width : sizes[first].height
                while end < count {
                    let next = vertical ? sizes[end].width : sizes[end].height
                    if lineStart + used + interitem + next > lineEnd + 1e-9 { break }
                    used += interitem + next
                    end += 1
                }
                let n = end - first
                let thickness = sizes[first..<end].map { vertical ? $0.height : $0.width }.max() ?? 0
                if lineCount > 0 { along += lineSpacing }
                let slack = max(0, lineEnd - lineStart - used)
                var position: CGFloat
                let gap: CGFloat
                if n == 1 {
                    position = lineStart + slack / 2
                    gap = 0
                } else {
                    position = lineStart
                    gap = interitem + slack / CGFloat(n - 1)
                }
                for item in first..<end {
                    let size = sizes[item]
                    let attributes = attributesClass.init(forCellWith: IndexPath(item: item, section: section))
                    let length = vertical ? size.width : size.height
                    let depth = vertical ? size.height : size.width
                    let offset = (thickness - depth) / 2
                    attributes.frame = vertical ? CGRect(x: position, y: along + offset, width: size.width, height: size.height)
                        : CGRect(x: along + offset, y: position, width: size.width, height: size.height)
                    sectionItems.append(attributes)
                    position += length + gap
                }
                along += thickness
                lineCount += 1
                first = end
            }
            along += vertical ? total.bottom : total.right
            items.append(sectionItems)
            let footerExtent = vertical ? footerSize.height : footerSize.width
            if footerExtent > 0 {
                let footer = attributesClass.init(forSupplementaryViewOfKind: UICollectionView.elementKindSectionFooter, with: IndexPath(item: 0, section: section))
                footer.frame = vertical ? CGRect(x: 0, y: along, width: bounds.width, height: footerExtent)
                    : CGRect(x: along, y: 0, width: footerExtent, height: across)
                footers.append(footer)
                along += footerExtent
            } else {
                footers.append(nil)
            }
        }
        contentSize = vertical ? CGSize(width: across, height: along) : CGSize(width: along, height: across)
    }

    open override var collectionViewContentSize: CGSize { contentSize }

    open override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        var result: [UICollectionViewLayoutAttributes] = []
        for section in items.indices {
            if let header = headers[section], header.frame.overlaps(rect) { result.append(header) }
            // Items are in order along the scroll: find the first that may overlap by binary search.
            let list = items[section]
            let vertical = scrollDirection == .vertical
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                let f = list[mid].frame
                if (vertical ? f.maxY : f.maxX) <= (vertical ? rect.minY : rect.minX) { lo = mid + 1 } else { hi = mid }
            }
            // Lines put items of one line side by side, so step back to the line's start.
            while lo > 0, (vertical ? list[lo - 1].frame.maxY : list[lo - 1].frame.maxX) > (vertical ? rect.minY : rect.minX) { lo -= 1 }
            var i = lo
            while i < list.count {
                let f = list[i].frame
                if (vertical ? f.minY : f.minX) >= (vertical ? rect.maxY : rect.maxX) { break }
                if f.overlaps(rect) { result.append(list[i]) }
                i += 1
            }
            if let footer = footers[section], footer.frame.overlaps(rect) { result.append(footer) }
        }
        return result
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard indexPath.count == 2, items.indices.contains(indexPath.section), items[indexPath.section].indices.contains(indexPath.item) else { return nil }
        return items[indexPath.section][indexPath.item]
    }

    open override func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard indexPath.count == 2, headers.indices.contains(indexPath.section) else { return nil }
        switch elementKind {
        case UICollectionView.elementKindSectionHeader: return headers[indexPath.section]
        case UICollectionView.elementKindSectionFooter: return footers[indexPath.section]
        default: return nil
        }
    }
}

extension CGRect {
    /// Whether the two share some area (edges that only touch do not), as Core Graphics'
    /// `intersects(_:)` on Apple's platforms.
    func overlaps(_ other: CGRect) -> Bool {
        let a = standardized, b = other.standardized
        return a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }
}
