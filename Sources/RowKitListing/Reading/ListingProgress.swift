/// How far reading a listing has come.
public struct ListingProgress: Sendable, Equatable {
    /// Bytes of the input read so far in this pass.
    public var bytesRead: Int
    /// The input's size in bytes, when known.
    public var bytesTotal: Int?
    /// Rows read so far in this pass.
    public var rowsRead: Int

    /// Creates a progress report.
    public init(bytesRead: Int, bytesTotal: Int?, rowsRead: Int) {
        self.bytesRead = bytesRead
        self.bytesTotal = bytesTotal
        self.rowsRead = rowsRead
    }
}
