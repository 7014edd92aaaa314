/// How far an export of listings has come.
public struct ExportProgress: Sendable, Equatable {
    /// The listing being read (its path as given).
    public var path: String
    /// Which listing it is (from 0), and how many there are.
    public var listing: Int
    public var listings: Int
    /// Bytes of it read so far, and its size.
    public var bytesRead: Int
    public var bytesTotal: Int?
    /// Rows read and sent to the renderers so far, over all listings.
    public var rows: Int
}
