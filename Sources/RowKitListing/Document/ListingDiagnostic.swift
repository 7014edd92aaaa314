/// One problem found in a listing file, with where it is.
public struct ListingDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, as one sentence without a trailing period.
    public var message: String

    /// Creates a diagnostic for `message` at `location`.
    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    /// The diagnostic as `file:line:column: message`.
    public var description: String { "\(location): \(message)" }
}
