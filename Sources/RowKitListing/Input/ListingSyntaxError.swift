/// A single fatal syntax problem that stops a parser.
struct ListingSyntaxError: Error, Sendable {
    /// The problem and its location.
    var diagnostic: ListingDiagnostic

    /// Creates the error for `message` at `location`.
    init(_ location: SourceLocation, _ message: String) {
        diagnostic = ListingDiagnostic(location: location, message: message)
    }
}
