/// The rows of a section: a random-access, mutable collection of `AnyRow` kept in a counted
/// B+-tree, so inserting or removing a row anywhere in a section of a million rows touches a few
/// hundred bytes instead of moving every row after it.
///
/// Use it as you would an array: index with `Int` positions, iterate, `map`, `insert(_:at:)`,
/// `remove(at:)`, `append(_:)`, assign an array literal. Build one from any sequence of rows with
/// `RowList(_:)`; get an array back with `Array(rows)`.
///
/// ```swift
/// var section = Section("Network") { DefaultRow("Wi-Fi") }
/// section.rows.insert(AnyRow(DefaultRow("Bluetooth")), at: 0)
/// let titles = section.rows.map(\.id)
/// ```
///
/// A `RowList` is a value: copies share storage until one of them changes, which copies it then
/// (O(*n*)).
///
/// - Complexity: Reading the row at a position, inserting, removing or replacing one row:
///   O(log *n*) for *n* rows. Iterating: O(*n*) for all rows. `count`: O(1).
public struct RowList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Sendable {
    /// The tree; copied before a change when shared.
    private(set) var storage: RowListStorage

    /// An empty list.
    ///
    /// - Complexity: O(1).
    public init() {
        storage = RowListStorage()
    }

    /// A list of `rows`, in order.
    ///
    /// - Complexity: O(*n*).
    public init(_ rows: some Sequence<AnyRow>) {
        storage = RowListStorage(Array(rows))
    }

    /// A list of `rows`, in order.
    ///
    /// - Complexity: O(*n*).
    public init(_ rows: [AnyRow]) {
        storage = RowListStorage(rows)
    }

    /// Whether `other` is a copy of this list that neither has changed since (the same storage).
    ///
    /// - Complexity: O(1).
    func sharesStorage(with other: RowList) -> Bool { storage === other.storage }

    /// A list of `rows` in a tree of the given node sizes (tests use small ones to reach deep trees).
    init(_ rows: [AnyRow], shape: RowListStorage.Shape) {
        storage = RowListStorage(rows, shape: shape)
    }

    public var startIndex: Int { 0 }

    /// The number of rows.
    ///
    /// - Complexity: O(1).
    public var endIndex: Int { storage.count }

    /// The number of rows.
    ///
    /// - Complexity: O(1).
    public var count: Int { storage.count }

    /// The row at `position`.
    ///
    /// - Complexity: O(log *n*).
    public subscript(position: Int) -> AnyRow {
        get {
            precondition(position >= 0 && position < storage.count, "RowList index out of range")
            return storage.row(at: position)
        }
        set {
            precondition(position >= 0 && position < storage.count, "RowList index out of range")
            makeUnique()
            _ = storage.replace(at: position, with: newValue)
        }
    }

    /// Inserts `row` so that it becomes the row at `position` (`0...count`).
    ///
    /// - Complexity: O(log *n*).
    public mutating func insert(_ row: AnyRow, at position: Int) {
        precondition(position >= 0 && position <= storage.count, "RowList index out of range")
        var moved: [Int32] = []
        makeUnique()
        _ = storage.insert(row, at: position, moved: &moved)
    }

    /// Appends `row`.
    ///
    /// - Complexity: O(log *n*).
    public mutating func append(_ row: AnyRow) {
        insert(row, at: storage.count)
    }

    /// Removes and returns the row at `position`.
    ///
    /// - Complexity: O(log *n*).
    @discardableResult
    public mutating func remove(at position: Int) -> AnyRow {
        precondition(position >= 0 && position < storage.count, "RowList index out of range")
        var moved: [Int32] = []
        makeUnique()
        return storage.remove(at: position, moved: &moved)
    }

    /// Replaces the rows in `subrange` with `newElements`.
    ///
    /// - Complexity: O((*k* + *m*) log *n*) for *k* rows removed and *m* inserted; O(*n* + *m*)
    ///   when every row is replaced.
    public mutating func replaceSubrange(_ subrange: Range<Int>, with newElements: some Collection<AnyRow>) {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= storage.count, "RowList range out of bounds")
        if subrange.count == storage.count {
            storage = RowListStorage(Array(newElements), shape: storage.shape)
            return
        }
        makeUnique()
        var moved: [Int32] = []
        for position in subrange.reversed() { _ = storage.remove(at: position, moved: &moved) }
        var position = subrange.lowerBound
        for row in newElements {
            _ = storage.insert(row, at: position, moved: &moved)
            position += 1
        }
    }

    /// Rows from the first leaf to the last, one leaf at a time.
    public struct Iterator: IteratorProtocol {
        let storage: RowListStorage
        var position = 0
        var leaf = UnsafeBufferPointer<AnyRow>(start: nil, count: 0)
        var local = 0

        public mutating func next() -> AnyRow? {
            if local == leaf.count {
                guard position < storage.count else { return nil }
                leaf = storage.rows(inLeaf: storage.leaf(holding: position).slot)
                local = 0
            }
            let row = leaf[local]
            local += 1
            position += 1
            return row
        }
    }

    /// An iterator over the rows in order.
    ///
    /// - Complexity: O(1) to make; O(*n*) to run through.
    public func makeIterator() -> Iterator { Iterator(storage: storage) }

    /// Copies the storage if another list shares it.
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = RowListStorage(copying: storage) }
    }
}

extension RowList: ExpressibleByArrayLiteral {
    /// A list of the literal's rows.
    public init(arrayLiteral rows: AnyRow...) {
        self.init(rows)
    }
}

// What the model's identity index needs: where each row is by leaf, and edits that report the
// leaves whose rows moved.
extension RowList {
    /// Inserts `row` at `position` and returns its leaf; appends to `moved` every leaf whose rows
    /// moved to another slot.
    ///
    /// - Complexity: O(log *n*), amortized: a split re-homes half a leaf.
    mutating func insert(_ row: AnyRow, at position: Int, moved: inout [Int32]) -> Int32 {
        makeUnique()
        return storage.insert(row, at: position, moved: &moved)
    }

    /// Removes the row at `position`; appends to `moved` every leaf whose rows moved to another slot.
    ///
    /// - Complexity: O(log *n*), amortized.
    mutating func remove(at position: Int, moved: inout [Int32]) -> AnyRow {
        makeUnique()
        return storage.remove(at: position, moved: &moved)
    }

    /// Replaces the row at `position` and returns the old row and the leaf.
    ///
    /// - Complexity: O(log *n*).
    mutating func replace(at position: Int, with row: AnyRow) -> (old: AnyRow, leaf: Int32) {
        makeUnique()
        return storage.replace(at: position, with: row)
    }

    /// The position of the row with identity `id` in leaf `leaf`, or `nil` when the leaf does not
    /// hold it.
    ///
    /// - Complexity: O(log *n* + *B*) for leaves of *B* rows.
    func position(of id: ItemID, inLeaf leaf: Int32, hint: UInt32 = RowListStorage.noHint) -> Int? {
        storage.position(of: id, inLeaf: leaf, hint: hint)
    }

    /// A hint for `position(of:inLeaf:hint:)` for the row at index `k` of leaf `leaf`; it holds
    /// until rows move in or out of the leaf.
    func hint(ofLeaf leaf: Int32, at k: Int) -> UInt32 { storage.hint(ofLeaf: leaf, at: k) }

    /// The index in leaf `leaf` that `hint` gives when it holds, else `nil`.
    func hintedIndex(_ hint: UInt32, inLeaf leaf: Int32) -> Int? { storage.hintedIndex(hint, inLeaf: leaf) }

    /// The identities of leaf `leaf`.
    func ids(inLeaf leaf: Int32) -> UnsafeBufferPointer<ItemID> { storage.ids(inLeaf: leaf) }

    /// Calls `body` with each leaf and its identities, in order.
    ///
    /// - Complexity: O(*n*).
    func forEachLeaf(_ body: (Int32, UnsafeBufferPointer<ItemID>) throws -> Void) rethrows {
        try storage.forEachLeaf(body)
    }

    /// The identities of all rows, in order.
    ///
    /// - Complexity: O(*n*).
    var ids: [ItemID] {
        var out: [ItemID] = []
        out.reserveCapacity(count)
        forEachLeaf { _, ids in out.append(contentsOf: ids) }
        return out
    }

    /// The first broken invariant of the tree, or `nil`.
    ///
    /// - Complexity: O(*n*).
    package func treeViolation() -> String? { storage.violation() }
}
