import ArgumentParser

/// The `sysexits(3)` statuses the tool exits with, besides ArgumentParser's own 0, 1 and 64, and
/// 128 plus a signal's number for an interrupted export.
extension ExitCode {
    /// 65, `EX_DATAERR`: an input listing has problems; nothing was written.
    static let dataError = ExitCode(65)
    /// 66, `EX_NOINPUT`: an input file does not exist or cannot be read.
    static let noInput = ExitCode(66)
    /// 73, `EX_CANTCREAT`: the output cannot be created or written.
    static let cannotCreate = ExitCode(73)
    /// 74, `EX_IOERR`: standard output could not be written (a full disk, a closed pipe); what
    /// was printed is incomplete.
    static let ioError = ExitCode(74)
    /// 75, `EX_TEMPFAIL`: another export is writing to the output folder (with `--no-wait`); try
    /// again later.
    static let temporaryFailure = ExitCode(75)
}
