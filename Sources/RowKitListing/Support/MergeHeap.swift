/// A binary min-heap ordered by a `precedes` function: where a k-way merge takes its next input
/// from (the spilled runs of row identities, and of the search index's words).
///
/// - Complexity: ``push(_:)``, ``popFirst()`` and ``replaceFirst(with:)`` are O(log *n*).
package struct MergeHeap<Element> {
    @usableFromInline var items: [Element]
    @usableFromInline let precedes: (Element, Element) -> Bool

    /// A heap of `items`, least first by `precedes`.
    @inlinable
    package init(_ items: [Element] = [], by precedes: @escaping (Element, Element) -> Bool) {
        self.items = items
        self.precedes = precedes
        for index in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    /// The least element.
    @inlinable package var first: Element? { items.first }

    @inlinable package var isEmpty: Bool { items.isEmpty }

    @inlinable
    package mutating func push(_ element: Element) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(items[child], items[parent]) else { return }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the least element.
    @inlinable
    package mutating func popFirst() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let least = items.removeLast()
        siftDown(from: 0)
        return least
    }

    /// Replaces the least element with `element`: one step down instead of a pop and a push.
    @inlinable
    package mutating func replaceFirst(with element: Element) {
        precondition(!items.isEmpty, "the heap has a first element")
        items[0] = element
        siftDown(from: 0)
    }

    @inlinable
    mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < items.count else { return }
            let right = left + 1
            let child = right < items.count && precedes(items[right], items[left]) ? right : left
            guard precedes(items[child], items[parent]) else { return }
            items.swapAt(child, parent)
            parent = child
        }
    }
}
