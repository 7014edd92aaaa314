import Testing

@testable import RowKit

/// A class identity whose equality ignores `note`, to show `ItemID` uses the type's own `==`.
private final class Tag: Hashable, Sendable {
    let name: String
    let note: String
    init(_ name: String, note: String = "") {
        self.name = name
        self.note = note
    }
    static func == (lhs: Tag, rhs: Tag) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

@Suite("Identities and the measurement cache")
struct IdentityTests {
    @Test
    func whenIdentitiesAreCompared_thenTheyFollowAnyHashable() {
        #expect(ItemID(7) == ItemID(7))
        #expect(ItemID("a") == ItemID("a"))
        #expect(ItemID(7) != ItemID(8))
        #expect(ItemID(7) != ItemID("7"))
        // Separately boxed equal values are equal and hash alike; wrapping an ItemID keeps it.
        #expect(ItemID(Tag("x", note: "one")) == ItemID(Tag("x", note: "two")))
        #expect(ItemID(Tag("x")).hashValue == ItemID(Tag("x")).hashValue)
        #expect(ItemID(ItemID(5)) == ItemID(5))
        // Across types, AnyHashable decides: it calls 1 as Int and 1 as Int64 equal.
        #expect((ItemID(1) == ItemID(Int64(1))) == (AnyHashable(1) == AnyHashable(Int64(1))))
        #expect(ItemID(1).hashValue == ItemID(Int64(1)).hashValue || AnyHashable(1) != AnyHashable(Int64(1)))
        let set: Set<ItemID> = [ItemID(1), ItemID("1"), ItemID(Tag("1")), ItemID(1)]
        #expect(set.count == 3)
    }

    /// `ItemID` hashes an `Int` or a `String` directly, not through `AnyHashable`, and takes the
    /// three common types without a runtime cast: both must give what `AnyHashable` and the casts
    /// give, or identities made different ways stop meeting in a hash table.
    @Test
    func whenIntsAndStringsAreWrapped_thenTheHashIsAnyHashablesAndEveryWayGivesTheSameIdentity() {
        var random = SystemRandomNumberGenerator()
        let ints =
            [0, 1, -1, .max, .min, Int(Int32.max), Int(Int32.min) - 1, Int(UInt32.max) + 1]
            + (0..<2_000).map { _ in Int.random(in: .min ... .max, using: &random) }
        for value in ints {
            #expect(ItemID(value).hashCode == AnyHashable(value).hashValue)
            #expect(ItemID(value) == ItemID(Optional(value)))
            #expect(ItemID(value).hashValue == ItemID(Optional(value)).hashValue)
            #expect(ItemID(value) == ItemID(Int64(value)))
            #expect(ItemID(value).hashValue == ItemID(Int64(value)).hashValue)
            #expect(ItemID(value) == wrapped(value) && wrapped(value).box == nil)
        }
        let strings =
            ["", "a", "row-17", "é", "e\u{301}", "日本語", String(repeating: "long ", count: 40)]
            + (0..<500).map { "row \($0) \(Int.random(in: .min ... .max, using: &random))" }
        for value in strings {
            #expect(ItemID(value).hashCode == AnyHashable(value).hashValue)
            #expect(ItemID(value) == wrapped(value) && wrapped(value).hashCode == ItemID(value).hashCode)
            #expect(ItemID(value) == ItemID(Optional(value)))
            #expect(ItemID(value).hashValue == ItemID(Optional(value)).hashValue)
        }
        // Canonically equal strings are one identity, however they are made.
        #expect(ItemID("e\u{301}") == ItemID("é") && ItemID("e\u{301}").hashValue == ItemID("é").hashValue)
        #expect(wrapped(ItemID("x")) == ItemID("x") && wrapped(ItemID(3)).box == nil)
        #expect(ItemID(Optional(5)) == ItemID(5) && ItemID(Optional(5)).hashValue == ItemID(5).hashValue)
    }

    /// `ItemID(_:)` as code generic over the identity's type calls it.
    private func wrapped<Value: Hashable & Sendable>(_ value: Value) -> ItemID { ItemID(value) }

    @Test
    func whenManyRowsAreMeasured_thenEveryMeasurementIsFoundAgainAfterTheTableGrows() {
        var cache = MeasurementCache()
        #expect(cache[HeightKey(id: ItemID(0), kind: .row, width: 320)] == nil)
        for i in 0..<20_000 {
            cache.set(Double(i % 97), for: HeightKey(id: ItemID(i), kind: .row, width: 320))
            if i % 3 == 0 { cache.set(Double(i), for: HeightKey(id: ItemID("s\(i)"), kind: .header, width: 320)) }
        }
        #expect(cache.count == 20_000 + 6_667)
        for i in 0..<20_000 {
            #expect(cache[HeightKey(id: ItemID(i), kind: .row, width: 320)] == Double(i % 97))
            // Another kind or width of the same identity is a different measurement.
            #expect(cache[HeightKey(id: ItemID(i), kind: .footer, width: 320)] == nil)
            #expect(cache[HeightKey(id: ItemID(i), kind: .row, width: 375)] == nil)
        }
        #expect(cache[HeightKey(id: ItemID("s2998"), kind: .header, width: 320)] == nil)
        #expect(cache[HeightKey(id: ItemID("s2997"), kind: .header, width: 320)] == 2_997)
        // Replacing keeps the count; -0.0 and 0.0 are the same width.
        cache.set(1.5, for: HeightKey(id: ItemID(3), kind: .row, width: 320))
        #expect(cache[HeightKey(id: ItemID(3), kind: .row, width: 320)] == 1.5)
        cache.set(9, for: HeightKey(id: ItemID("w"), kind: .row, width: 0.0))
        #expect(cache[HeightKey(id: ItemID("w"), kind: .row, width: -0.0)] == 9)
        #expect(cache.count == 20_000 + 6_667 + 1)
    }
}
