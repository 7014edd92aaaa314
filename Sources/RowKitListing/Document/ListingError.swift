/// The error thrown when a listing cannot be read: every problem found, in file order.
public struct ListingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, at least one, each with its location.
    public var diagnostics: [ListingDiagnostic]

    /// Creates an error carrying `diagnostics`.
    public init(diagnostics: [ListingDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One `file:line:column: message` line per diagnostic.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
