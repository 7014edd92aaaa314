/// Measured heights by `HeightKey`, stored under an integer code so that a lookup hashes and
/// compares integers; the identity itself is compared only on a code match.
///
/// (A dictionary keyed by `HeightKey` compares, and copies, a type-erased identity for every
/// bucket it probes; at 100,000 measured rows that was most of a scroll frame.)
struct MeasurementCache {
    private enum Slot {
        case one(ItemID, Double)
        case many([(ItemID, Double)])
    }

    private var slots: [Int: Slot] = [:]
    /// The number of measurements.
    private(set) var count = 0

    /// The measurement for `key`. - Complexity: O(1) expected.
    subscript(key: HeightKey) -> Double? {
        get {
            switch slots[key.code] {
            case nil: return nil
            case .one(let id, let height)?: return key.matches(id) ? height : nil
            case .many(let entries)?: return entries.first { key.matches($0.0) }?.1
            }
        }
        set {
            let code = key.code
            switch slots[code] {
            case nil:
                if let newValue {
                    slots[code] = .one(key.id, newValue)
                    count += 1
                }
            case .one(let id, let height)?:
                if key.matches(id) {
                    if let newValue { slots[code] = .one(id, newValue) } else { slots[code] = nil; count -= 1 }
                } else if let newValue {
                    slots[code] = .many([(id, height), (key.id, newValue)])
                    count += 1
                }
            case .many(var entries)?:
                if let index = entries.firstIndex(where: { key.matches($0.0) }) {
                    if let newValue { entries[index].1 = newValue } else { entries.remove(at: index); count -= 1 }
                } else if let newValue {
                    entries.append((key.id, newValue))
                    count += 1
                }
                slots[code] = entries.isEmpty ? nil : .many(entries)
            }
        }
    }
}
