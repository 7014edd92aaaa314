/// A Bloom filter of 64-bit values (hashes) in 16 bits a value: whether a value may be among
/// those inserted, never wrong when it says no, and wrong less than one time in 100 when it says
/// maybe for a value never inserted (at its capacity). Each value sets four bits of one 64-bit
/// word, so a query reads one word.
///
/// Values must already be well mixed (a hash): the word comes from the top bits, the four bits
/// from bits 1–24 (bit 0 is left to the caller's tag).
package struct HashFilter: Sendable {
    /// How many values it was made for; more make it say maybe more often.
    package let capacity: Int
    private var words: [UInt64]

    /// An empty filter for `capacity` values.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        words = Array(repeating: 0, count: max(1, self.capacity / 4))
    }

    /// The word of `value` and its four bits.
    @inline(__always)
    private func place(_ value: UInt64) -> (word: Int, bits: UInt64) {
        let word = Int(truncatingIfNeeded: value.multipliedFullWidth(by: UInt64(words.count)).high)
        var bits: UInt64 = 0
        for shift in stride(from: UInt64(1), to: 25, by: 6) { bits |= 1 << ((value >> shift) & 63) }
        return (word, bits)
    }

    /// Adds `value`.
    package mutating func insert(_ value: UInt64) {
        let (word, bits) = place(value)
        words[word] |= bits
    }

    /// Whether `value` may have been inserted (`false`: it was not).
    package func mayContain(_ value: UInt64) -> Bool {
        let (word, bits) = place(value)
        return words[word] & bits == bits
    }
}
