import CBenchReference

/// The plain-C Fenwick tree over doubles the offset tree is measured against (benchmark code in
/// `Sources/CBenchReference`, not part of RowKit). The only Swift file that imports it.
final class FenwickReference {
    private let handle: OpaquePointer

    /// A Fenwick tree of `heights`.
    init(heights: [Double]) {
        guard let handle = rkref_fenwick_create() else { preconditionFailure("cannot allocate the Fenwick reference") }
        self.handle = handle
        build(heights)
    }

    deinit { rkref_fenwick_destroy(handle) }

    /// Rebuilds it from `heights`, reusing its arrays.
    func build(_ heights: [Double]) {
        let status = heights.withUnsafeBufferPointer { rkref_fenwick_build(handle, $0.baseAddress, $0.count) }
        precondition(status == 0, "cannot allocate the Fenwick reference")
    }

    /// The sum of the heights before item `i`.
    func prefix(_ i: Int) -> Double { rkref_fenwick_prefix(handle, i) }

    /// The item at offset `y`.
    func find(_ y: Double) -> Int { rkref_fenwick_find(handle, y) }

    /// Sets item `i`'s height.
    func set(_ i: Int, _ height: Double) { rkref_fenwick_set(handle, i, height) }
}

/// The plain-C chunked array (chunks of 64 rows, Fenwick trees over chunk counts and sums) the
/// offset tree's inserts and removes are measured against.
final class ChunkedReference {
    private let handle: OpaquePointer

    /// A chunked array of `heights`, in chunks of 48.
    init(heights: [Double]) {
        guard let handle = rkref_chunked_create() else { preconditionFailure("cannot allocate the chunked reference") }
        self.handle = handle
        let status = heights.withUnsafeBufferPointer { rkref_chunked_build(handle, $0.baseAddress, $0.count) }
        precondition(status == 0, "cannot allocate the chunked reference")
    }

    deinit { rkref_chunked_destroy(handle) }

    /// The number of items.
    var count: Int { rkref_chunked_count(handle) }

    /// Inserts `height` at `index`.
    func insert(_ height: Double, at index: Int) {
        precondition(rkref_chunked_insert(handle, index, height) == 0, "cannot allocate a chunk")
    }

    /// Removes the item at `index`.
    func remove(at index: Int) { rkref_chunked_remove(handle, index) }
}
