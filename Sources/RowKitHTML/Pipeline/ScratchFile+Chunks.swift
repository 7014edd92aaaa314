extension ScratchFile {
    /// Calls `body` with the bytes at `ranges`, one after the other, a MiB at most at a time.
    func forEachChunk(of ranges: [Range<Int>], _ body: ([UInt8]) throws -> Void) throws {
        var chunk: [UInt8] = []
        for range in ranges {
            var offset = range.lowerBound
            while offset < range.upperBound {
                chunk.removeAll(keepingCapacity: true)
                let end = min(range.upperBound, offset + (1 << 20))
                try read(offset..<end, appendingTo: &chunk)
                try body(chunk)
                offset = end
            }
        }
    }
}
