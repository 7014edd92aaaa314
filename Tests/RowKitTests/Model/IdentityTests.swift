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
