import Foundation

/// The process's standard error: diagnostics, messages and the progress bar go here; standard
/// output carries only results (summaries, tables, JSON).
enum StandardError {
    /// Writes `text` and a newline to standard error.
    static func line(_ text: String) {
        write(text + "\n")
    }

    /// Writes `text` to standard error as it is, unbuffered.
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether standard error is a terminal (`isatty(2)`).
    static var isTerminal: Bool { isatty(2) == 1 }
}
