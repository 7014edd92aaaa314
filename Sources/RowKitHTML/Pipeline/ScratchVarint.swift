/// The integer encoding of the planner's records in the scratch file (``SectionList``,
/// ``PagePartList``): 7-bit groups, low first, the high bit set on all but the last.
enum ScratchVarint {
    /// Appends `value` (not negative).
    static func append(_ value: Int, into bytes: inout [UInt8]) {
        var rest = UInt(value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7f) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The value at `offset` in `bytes`; moves `offset` past it.
    static func read(_ bytes: [UInt8], _ offset: inout Int) -> Int {
        var value: UInt = 0
        var shift: UInt = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt(byte & 0x7f) << shift
            if byte < 0x80 { return Int(value) }
            shift += 7
        }
    }
}
