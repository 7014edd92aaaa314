/// A growable raw array of trivial values (integers, doubles), for the trees' node storage: indexed
/// without bounds, uniqueness or exclusivity checks. A value type over a pointer: the owner (a
/// class) frees it with ``free()`` in its `deinit` and copies it with ``copy()``.
struct Slab<T> {
    private(set) var base: UnsafeMutablePointer<T> = .allocate(capacity: 0)
    private(set) var capacity = 0

    /// Grows the capacity to at least `count` (doubling), keeping the contents.
    mutating func grow(to count: Int) {
        guard count > capacity else { return }
        let capacity = max(count, self.capacity * 2)
        let new = UnsafeMutablePointer<T>.allocate(capacity: capacity)
        new.moveInitialize(from: base, count: self.capacity)
        base.deallocate()
        base = new
        self.capacity = capacity
    }

    /// A separate slab with the same contents.
    func copy() -> Slab {
        var other = Slab()
        other.grow(to: capacity)
        other.base.update(from: base, count: capacity)
        return other
    }

    /// Frees the memory; the slab must not be used afterwards.
    func free() { base.deallocate() }

    @inline(__always)
    subscript(i: Int) -> T {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }
}
