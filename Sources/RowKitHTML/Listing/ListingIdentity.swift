/// Derives row identities: the rule documented in `docs/listing-format.md`.
///
/// A row without an explicit `id` gets the slug of its text: letters and digits are kept
/// (lowercased by Unicode's locale-independent mapping when that is a single scalar), every other run of
/// characters becomes one `-`, leading and trailing `-` are dropped, and the result is cut to
/// ``ListingLimits/maxDerivedIDLength`` scalars; an empty slug becomes `row`. Rows are visited in
/// document order (section by section, row by row); a slug already taken, by an explicit id
/// anywhere in the document or by an earlier derived one, gets the first free suffix `-2`, `-3`, ...
struct ListingIdentity {
    /// Every identity handed out or reserved so far.
    private var taken: Set<String>
    /// For each slug, the next suffix to try, so n equal texts cost O(n), not O(n²).
    private var nextSuffix: [String: Int] = [:]

    /// Starts with the document's explicit ids reserved.
    init(reserving explicitIDs: Set<String>) {
        taken = explicitIDs
    }

    /// The identity for the next row without an explicit id, in document order.
    mutating func derive(from text: String) -> String {
        let base = Self.slug(text)
        var candidate = base
        if taken.contains(candidate) {
            var suffix = nextSuffix[base] ?? 2
            repeat {
                candidate = "\(base)-\(suffix)"
                suffix += 1
            } while taken.contains(candidate)
            nextSuffix[base] = suffix
        }
        taken.insert(candidate)
        return candidate
    }

    /// The slug of `text` (see the type's discussion).
    static func slug(_ text: String) -> String {
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
