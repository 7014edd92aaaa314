import Foundation
import RowKitListing

/// The process's standard error: diagnostics, messages and the progress bar go here; standard
/// output carries only results (summaries, tables, JSON).
enum StandardError {
    /// Writes `text` and a newline to standard error, with control and bidi characters (from file
    /// names, say, an escape sequence among them) shown as escapes such as `\u{1B}`, so nothing in a
    /// message can drive the terminal; the line breaks of a message of several lines stay.
    static func line(_ text: String) {
        write(safe(text) + "\n")
    }

    /// `text` with control and bidi characters escaped, line breaks kept (``ListingText/escaped(_:)``).
    static func safe(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { ListingText.escaped(String($0)) }
            .joined(separator: "\n")
    }

    /// Writes `text` to standard error as it is, unbuffered.
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether standard error is a terminal (`isatty(2)`).
    static var isTerminal: Bool { isatty(2) == 1 }
}
