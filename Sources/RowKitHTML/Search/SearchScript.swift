/// The pieces of the index's script files: JavaScript string literals, postings strings and
/// file names.
///
/// Every index file is one call, `RowKitSearch.load("<table key>", "<file name>", <data>)`, so a
/// `<script>` element can load it from `file://` as from any host (nothing is fetched). The data
/// is JSON (objects, arrays, numbers and strings written here), never code.
enum SearchScript {
    /// The call every file makes; `data` is appended by the caller, then ``close``.
    static func open(key: String, name: String, into output: inout [UInt8]) {
        output.append(contentsOf: "RowKitSearch.load(".utf8)
        string(key, into: &output)
        output.append(UInt8(ascii: ","))
        string(name, into: &output)
        output.append(UInt8(ascii: ","))
    }

    /// Ends the call `open` began.
    static func close(_ output: inout [UInt8]) {
        output.append(contentsOf: ");\n".utf8)
    }

    /// Appends `text` as a double-quoted JavaScript string: quotes, backslashes, control
    /// characters, `<`, `>`, `&` and the line and paragraph separators escaped, other characters
    /// as UTF-8.
    static func string(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case UInt8(ascii: "\n"):
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0x7F, 0x00..<0x20:
                escapeUnicode(UInt32(byte), into: &output)
            case 0xE2:
                // U+2028 and U+2029 (E2 80 A8, E2 80 A9) end lines in older JavaScript.
                let second = utf8.index(after: index)
                if second != utf8.endIndex, utf8[second] == 0x80, utf8.index(after: second) != utf8.endIndex,
                    case let third = utf8[utf8.index(after: second)], third == 0xA8 || third == 0xA9
                {
                    escapeUnicode(third == 0xA8 ? 0x2028 : 0x2029, into: &output)
                    index = utf8.index(after: utf8.index(after: second))
                    continue
                }
                output.append(byte)
            default:
                output.append(byte)
            }
            index = utf8.index(after: index)
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private static func escapeUnicode(_ value: UInt32, into output: inout [UInt8]) {
        output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) { output.append(hex[Int((value >> UInt32(shift)) & 0xF)]) }
    }

    /// Digits that end a number (5 bits each) and digits that continue it.
    static let finalDigits = Array("0123456789abcdefghijklmnopqrstuv".utf8)
    static let continuingDigits = Array("wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_".utf8)

    /// Appends `rows` (ascending, distinct) as a postings string: the first row, then each gap
    /// less one, every number in 5-bit digits, most significant first, the last digit from
    /// ``finalDigits`` and the others from ``continuingDigits``. Dense rows cost one character each.
    static func postings(_ rows: some Collection<UInt32>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var previous: UInt32? = nil
        for row in rows {
            number(previous.map { row - $0 - 1 } ?? row, into: &output)
            previous = row
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func number(_ value: UInt32, into output: inout [UInt8]) {
        var shift: UInt32 = 0
        while shift < 30 && value >> (shift + 5) != 0 { shift += 5 }
        while shift > 0 {
            output.append(continuingDigits[Int((value >> shift) & 31)])
            shift -= 5
        }
        output.append(finalDigits[Int(value & 31)])
    }

    /// A file-name-safe spelling of folded word scalars: ASCII letters and digits as they are,
    /// anything else as `_` + hexadecimal + `_`. Folded words are lower case, so names never
    /// differ by case alone (case-insensitive file systems keep them apart).
    static func fileName<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> String {
        var name = ""
        for scalar in scalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                name.unicodeScalars.append(scalar)
            } else {
                name += "_" + String(scalar.value, radix: 16) + "_"
            }
        }
        return name
    }
}
