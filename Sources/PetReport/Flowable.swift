import Cairo

/// One measured piece of the report's flow, drawn at a position on a page.
///
/// Everything is measured once, before pagination; drawing reuses the same Pango layouts.
protocol Flowable {
    var height: Double { get }
    /// Space above it, dropped at the top of a page.
    var spaceBefore: Double { get }
    /// Stays on the page where the next flowable starts (headings).
    var keepWithNext: Bool { get }
    /// Height of the smallest first part it can be split into (all of it when unsplittable).
    var leadHeight: Double { get }
    /// A first part no taller than `available` and the rest, or nil when it cannot (or, off the
    /// top of a page, should not) be split so. At the top of a page it splits wherever it can,
    /// since moving on would not help.
    func split(toFit available: Double, atPageTop: Bool) -> (first: any Flowable, rest: any Flowable)?
    /// Draws with the top-left corner at (x, y).
    func draw(x: Double, y: Double, on context: Context) throws
}

extension Flowable {
    var keepWithNext: Bool { false }
    var leadHeight: Double { height }
    func split(toFit available: Double, atPageTop: Bool) -> (first: any Flowable, rest: any Flowable)? { nil }
}

/// Vertical space; dropped at the top of a page.
struct SpaceFlowable: Flowable {
    var height: Double
    var spaceBefore: Double { 0 }
    func draw(x: Double, y: Double, on context: Context) {}
}

/// Ends the page (ignored on an empty page).
struct PageBreakFlowable: Flowable {
    var height: Double { 0 }
    var spaceBefore: Double { 0 }
    func draw(x: Double, y: Double, on context: Context) {}
}

/// A flowable placed on a page at `y`.
struct PlacedFlowable {
    var item: any Flowable
    var y: Double
}

/// Greedy pagination: fill each page top to bottom, split what splits, move what does not.
enum Paginator {
    /// Pages of placed flowables between `top` and `bottom` (always at least one page).
    static func paginate(_ flow: [any Flowable], top: Double, bottom: Double) -> [[PlacedFlowable]] {
        var pages: [[PlacedFlowable]] = [[]]
        var y = top
        var pending = Array(flow.reversed())   // a stack: the next flowable is last
        let fullHeight = bottom - top

        func newPage() {
            pages.append([])
            y = top
        }
        func place(_ item: any Flowable, gap: Double) {
            pages[pages.count - 1].append(PlacedFlowable(item: item, y: y + gap))
            y += gap + item.height
        }
        /// The next flowable that takes room (spacers and breaks do not keep a heading company).
        func nextContent() -> (any Flowable)? {
            for item in pending.reversed() {
                if item is PageBreakFlowable { return nil }
                if !(item is SpaceFlowable) { return item }
            }
            return nil
        }

        while let item = pending.popLast() {
            let atTop = pages[pages.count - 1].isEmpty
            if item is PageBreakFlowable {
                if !atTop { newPage() }
                continue
            }
            if item is SpaceFlowable {
                if !atTop { y = min(bottom, y + item.height) }
                continue
            }
            let gap = atTop ? 0 : item.spaceBefore
            let available = bottom - y - gap
            var needed = item.height
            if item.keepWithNext, let next = nextContent() {
                // The heading and the first part of what it introduces, unless that could never fit.
                let together = item.height + next.spaceBefore + next.leadHeight
                if together <= fullHeight { needed = together }
            }
            if needed <= available + 0.01 {
                place(item, gap: gap)
                continue
            }
            if (!item.keepWithNext || atTop), let (first, rest) = item.split(toFit: available, atPageTop: atTop),
               first.height <= available + 0.01 {
                place(first, gap: gap)
                pending.append(rest)
                newPage()
                continue
            }
            if atTop {
                // Taller than a page and unsplittable (a chart cannot be: its height is capped): drawn anyway (clipped by the page), never dropped.
                place(item, gap: gap)
                continue
            }
            pending.append(item)
            newPage()
        }
        if pages.count > 1 && pages[pages.count - 1].isEmpty { pages.removeLast() }
        return pages
    }
}
