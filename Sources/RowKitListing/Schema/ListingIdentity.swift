/// Derives row identities: the rule documented in `docs/listing-format.md`.
///
/// A row without an explicit `id` gets the slug of its text: letters and digits are kept
/// (lowercased by Unicode's locale-independent mapping when that is a single scalar), every other run of
/// characters becomes one `-`, leading and trailing `-` are dropped, and the result is cut to
/// ``ListingLimits/maxDerivedIDLength`` scalars; an empty slug becomes `row`. Rows are visited in
/// document order (section by section, row by row); a slug already taken, by an explicit id
/// anywhere in the document or by an earlier derived one, gets the first free suffix `-2`, `-3`, ...
///
/// Identities are remembered as 64-bit hashes (``HashSet64``), about 8 bytes each. A repeated
/// explicit id is first seen as a repeated hash; the reader then takes a second look at the ids
/// with that hash, reading them again, to report exactly the ids that repeat and where each was
/// first used. A derived id that is tested against a different id with the same 64-bit hash would
/// take a suffix it did not need: with 63 bits compared, a million rows give such a pair with a
/// chance of about one in ten million.
///
/// Memory stays flat: once `memoryBound` identities are in memory, they are set aside on disk as
/// a sorted run (``HashRuns``) and memory starts again empty. An explicit id is checked against
/// the identities in memory as it comes; ``settle()`` merges the runs at the end of the pass to
/// find the repeats and the explicit ids equal to an id derived earlier. A derived id must be
/// checked against every identity before it at once: against those in memory, then through a
/// Bloom filter of those set aside (``HashFilter``, 2 to 3 bytes an identity, made at the first
/// derived id that needs it), and on disk only when the filter says maybe (less than one time in
/// 100 when the id is free). When the disk is asked for more than one derived id in 16 (many texts
/// with the same slug), or it is full, every identity is taken back into memory for the rest of
/// the read, as before.
struct ListingIdentity {
    /// The identities in memory (all but those set aside); the low bit tells an explicit id (1)
    /// from a derived one (0).
    private var taken = HashSet64(ignoredLowBits: 1)
    /// The identities set aside on disk, with their tags; `nil` while memory holds them all.
    private var setAside: HashRuns?
    /// A filter of the identities set aside, for derived ids; `nil` until one needs it, and when
    /// it is too small for them.
    private var setAsideFilter: HashFilter?
    /// Whether identities may still be set aside: the disk has not failed or been asked too often.
    private var maySetAside = true
    /// How many identities memory holds before they are set aside as a run.
    private let memoryBound: Int
    /// Ids derived, and those of them looked up on disk.
    private var derived = 0
    private var lookedUpOnDisk = 0
    /// Why the identities set aside could not be read back, when they could not (then what they
    /// would have told is unknown).
    private(set) var setAsideFailure: String?
    /// For each slug that has been taken more than twice, the next suffix to try, so n equal
    /// texts cost O(n), not O(n²). Only a shortcut: without it the same suffix is found.
    private var nextSuffix: [String: Int] = [:]
    /// The hashes of explicit ids seen more than once (a repeat, or two ids with one hash).
    private(set) var repeatedHashes: Set<UInt64> = []
    /// Whether an explicit id turned out equal to an identity derived earlier in this pass: the
    /// earlier row should have taken another, so the derived ids handed out are void.
    private(set) var derivedTooEarly = false

    private static let explicitTag: UInt64 = 1
    private static let compared: UInt64 = ~1

    /// No identities yet; they are set aside on disk `memoryBound` at a time.
    init(memoryBound: Int = 1 << 19) {
        self.memoryBound = max(1, memoryBound)
    }

    /// The same explicit ids as `other`, all in memory, and nothing derived: for a second pass
    /// that derives knowing every explicit id of the document.
    init(reservingExplicitIDsOf other: ListingIdentity) {
        memoryBound = other.memoryBound
        maySetAside = false
        taken = other.taken
        taken.keepOnly(tag: Self.explicitTag)
        if let runs = other.setAside {
            let whole = runs.readBack { value in
                if value & Self.explicitTag != 0 { taken.insert(value) }
            }
            if !whole { setAsideFailure = Self.unreadable(runs) }
        }
    }

    /// Why the identities set aside in `runs` could not be read back.
    private static func unreadable(_ runs: HashRuns) -> String {
        "cannot read back the row ids set aside in a temporary file (\(runs.readError ?? "unknown error"))"
    }

    private static func hash(_ id: String) -> UInt64 { StableHash.of(id) & compared }

    /// Notes an explicit id in document order.
    mutating func noteExplicit(_ id: String) {
        note(Self.hash(id) | Self.explicitTag)
    }

    /// Notes `value` (a hash and its tag) in memory: an explicit id equal to one in memory is a
    /// repeat, or proves the derived one equal to it wrong.
    private mutating func note(_ value: UInt64) {
        if let existing = taken.find(value) {
            if value & Self.explicitTag != 0 {
                if existing & Self.explicitTag != 0 {
                    repeatedHashes.insert(value & Self.compared)
                } else {
                    derivedTooEarly = true
                    taken.update(value)
                }
            } else if existing & Self.explicitTag != 0 {
                derivedTooEarly = true
            }
            return
        }
        taken.insert(value)
        setAsideIfFull()
    }

    /// Sets the identities in memory aside as a run once they are `memoryBound`.
    private mutating func setAsideIfFull() {
        guard maySetAside, taken.count >= memoryBound else { return }
        if setAside == nil { setAside = HashRuns() }
        guard let runs = setAside else {
            maySetAside = false
            return
        }
        let values = taken.sortedValues()
        guard runs.append(run: values) else {
            takeBack()
            return
        }
        if var filter = setAsideFilter {
            if runs.count <= filter.capacity {
                for value in values { filter.insert(value & Self.compared) }
                setAsideFilter = filter
            } else {
                setAsideFilter = nil
            }
        }
        taken = HashSet64(ignoredLowBits: 1)
    }

    /// Whether `hash` (of a derived id's candidate) is among the identities set aside.
    private mutating func isSetAside(_ hash: UInt64) -> Bool {
        guard let runs = setAside else { return false }
        if setAsideFilter == nil {
            var filter = HashFilter(capacity: runs.count + runs.count / 2)
            if !runs.readBack({ filter.insert($0 & Self.compared) }) {
                setAsideFailure = Self.unreadable(runs)
                return false
            }
            setAsideFilter = filter
        }
        guard let filter = setAsideFilter, filter.mayContain(hash) else { return false }
        lookedUpOnDisk += 1
        let found = runs.find(hash, mask: Self.compared) != nil
        if runs.readError != nil { setAsideFailure = Self.unreadable(runs) }
        if lookedUpOnDisk > 4_096, lookedUpOnDisk * 16 > derived { takeBack() }
        return found
    }

    /// Claims `hash` for a derived id when no identity has it; returns whether it was free.
    private mutating func claim(_ hash: UInt64) -> Bool {
        if taken.contains(hash) || isSetAside(hash) { return false }
        note(hash)
        return true
    }

    /// Finds what the identities set aside tell: the explicit ids among them (and those in
    /// memory) that repeat, and whether one equals an id derived before it. Call at the end of
    /// a pass that notes explicit ids, before reading ``repeatedHashes`` and ``derivedTooEarly``.
    mutating func settle() {
        guard let runs = setAside else { return }
        var group: UInt64?
        var explicit = 0
        var derivedInGroup = 0
        var repeats: Set<UInt64> = []
        var clash = false
        func close() {
            if explicit > 1, let group { repeats.insert(group) }
            if explicit > 0, derivedInGroup > 0 { clash = true }
        }
        let whole = runs.merge(with: taken.sortedValues()) { value in
            if value & Self.compared != group {
                close()
                group = value & Self.compared
                explicit = 0
                derivedInGroup = 0
            }
            if value & Self.explicitTag != 0 { explicit += 1 } else { derivedInGroup += 1 }
        }
        close()
        guard whole else {
            setAsideFailure = Self.unreadable(runs)
            return
        }
        repeatedHashes.formUnion(repeats)
        if clash { derivedTooEarly = true }
    }

    /// Takes the identities set aside back into memory, for good: the disk is full, or derived
    /// ids ask it too often.
    private mutating func takeBack() {
        maySetAside = false
        guard let runs = setAside else { return }
        setAside = nil
        setAsideFilter = nil
        let whole = runs.readBack { note($0) }
        if !whole { setAsideFailure = Self.unreadable(runs) }
    }

    /// The identity for the next row without an explicit id, in document order.
    mutating func derive(from text: String) -> String {
        derived += 1
        let base = Self.slug(text)
        if claim(Self.hash(base)) { return base }
        var suffix = nextSuffix[base] ?? 2
        var tried = 0
        var candidate: String
        repeat {
            candidate = "\(base)-\(suffix)"
            suffix += 1
            tried += 1
        } while !claim(Self.hash(candidate))
        if tried > 1 || nextSuffix[base] != nil { nextSuffix[base] = suffix }
        return candidate
    }

    /// The slug of an all-ASCII `text`, byte by byte (the same as the general rule), or `nil` when
    /// `text` has other characters.
    private static func asciiSlug(_ text: String) -> String? {
        var copy = text
        return copy.withUTF8 { utf8 -> String? in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            let capacity = max(3, min(utf8.count, ListingLimits.maxDerivedIDLength))
            // Written straight into the string's storage (in place for a small string).
            return String(unsafeUninitializedCapacity: capacity) { slug in
                var count = 0
                var pendingDash = false
                for byte in utf8 {
                    guard count < ListingLimits.maxDerivedIDLength else { break }
                    let keep: UInt8
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): keep = byte
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): keep = byte + 32
                    default:
                        pendingDash = count > 0
                        continue
                    }
                    if pendingDash {
                        guard count + 2 <= ListingLimits.maxDerivedIDLength else { break }
                        slug[count] = UInt8(ascii: "-")
                        count += 1
                    }
                    pendingDash = false
                    slug[count] = keep
                    count += 1
                }
                if count == 0 {
                    for (index, byte) in "row".utf8.enumerated() { slug[index] = byte }
                    return 3
                }
                return count
            }
        }
    }

    /// The slug of `text` (see the type's discussion).
    static func slug(_ text: String) -> String {
        if let ascii = asciiSlug(text) { return ascii }
        var scalars = String.UnicodeScalarView()
        var pendingDash = false
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < ListingLimits.maxDerivedIDLength else { break }
            let keep: Unicode.Scalar?
            if scalar.isASCII {
                switch scalar {
                case "a"..."z", "0"..."9": keep = scalar
                case "A"..."Z": keep = Unicode.Scalar(scalar.value + 32)
                default: keep = nil
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                let lower = scalar.properties.lowercaseMapping.unicodeScalars
                keep = lower.count == 1 ? lower.first : scalar
            } else {
                keep = nil
            }
            guard let keep else {
                pendingDash = count > 0
                continue
            }
            if pendingDash {
                guard count + 2 <= ListingLimits.maxDerivedIDLength else { break }
                scalars.append("-")
                count += 1
            }
            pendingDash = false
            scalars.append(keep)
            count += 1
        }
        return scalars.isEmpty ? "row" : String(scalars)
    }
}
