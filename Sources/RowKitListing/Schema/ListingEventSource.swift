/// A parser of a listing document as a stream of ``ListingEvent``s: the YAML and JSON readers.
protocol ListingEventSource: SendableMetatype {
    /// The next event, or `nil` at the end of the stream or when reading stops.
    mutating func next() -> ListingEvent?
    /// Whether a problem that makes the document unreadable has been found so far (rows are no
    /// longer handed out after one).
    var hasProblems: Bool { get }
}
