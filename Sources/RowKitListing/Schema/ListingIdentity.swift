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
/// Memory stays flat for listings whose rows all have explicit ids (what large generated listings
/// have): past `memoryBound` of them, further explicit ids are set aside on disk (``HashRuns``)
/// rather than remembered, each still checked against those in memory as it comes, and
/// ``settle()`` finds the repeats among them at the end of the pass. The first id derived takes
/// them all back into memory, since a derived id must be checked against every id before it.
struct ListingIdentity {
    /// Every identity handed out or reserved so far but those set aside; the low bit tells an
    /// explicit id (1) from a derived one (0).
    private var taken = HashSet64(ignoredLowBits: 1)
    /// The explicit ids set aside on disk, without their tag; `nil` while `taken` holds them all.
    private var setAside: HashRuns?
    /// Whether ids may still be set aside: none has been derived, and a temporary file could be
    /// made.
    private var maySetAside = true
    /// How many ids `taken` holds before the next ones are set aside, and how many are sorted at
    /// a time on disk.
    private let memoryBound: Int
    /// Why the ids set aside could not be read back, when they could not (then repeats among them
    /// are unknown).
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

    /// No identities yet; explicit ids past `memoryBound` are set aside on disk.
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
            let whole = runs.readBack { taken.insert($0 | Self.explicitTag) }
            if !whole { setAsideFailure = Self.unreadable(runs) }
        }
    }

    /// Why the ids set aside in `runs` could not be read back.
    private static func unreadable(_ runs: HashRuns) -> String {
        "cannot read back the row ids set aside in a temporary file (\(runs.readError ?? "unknown error"))"
    }

    private static func hash(_ id: String) -> UInt64 { StableHash.of(id) & ~1 }

    /// Notes an explicit id in document order.
    mutating func noteExplicit(_ id: String) {
        let hash = Self.hash(id)
        if let existing = taken.find(hash) {
            if existing & 1 == Self.explicitTag {
                repeatedHashes.insert(hash)
            } else {
                derivedTooEarly = true
                taken.update(hash | Self.explicitTag)
            }
            return
        }
        if let runs = setAside {
            if !runs.append(hash) { takeBack() }
            return
        }
        taken.insert(hash | Self.explicitTag)
        if maySetAside, taken.count >= memoryBound {
            setAside = HashRuns(runLength: memoryBound)
            maySetAside = setAside != nil
        }
    }

    /// Finds the repeats among the explicit ids set aside: call at the end of a pass that notes
    /// explicit ids, before reading ``repeatedHashes``.
    mutating func settle() {
        guard let runs = setAside else { return }
        if let repeats = runs.repeated() {
            repeatedHashes.formUnion(repeats)
        } else {
            setAsideFailure = Self.unreadable(runs)
        }
    }

    /// Takes the ids set aside back into memory, for good: an id is about to be derived, or the
    /// disk is full.
    private mutating func takeBack() {
        maySetAside = false
        guard let runs = setAside else { return }
        setAside = nil
        let whole = runs.readBack { hash in
            if !taken.insert(hash | Self.explicitTag) { repeatedHashes.insert(hash) }
        }
        if !whole { setAsideFailure = Self.unreadable(runs) }
    }

    /// The identity for the next row without an explicit id, in document order.
    mutating func derive(from text: String) -> String {
        if maySetAside || setAside != nil { takeBack() }
        let base = Self.slug(text)
        // `insert` adds a hash only when it is free, so each candidate costs one probe.
        if taken.insert(Self.hash(base)) { return base }
        var suffix = nextSuffix[base] ?? 2
        var tried = 0
        var candidate: String
        repeat {
            candidate = "\(base)-\(suffix)"
            suffix += 1
            tried += 1
        } while !taken.insert(Self.hash(candidate))
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
