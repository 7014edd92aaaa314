import ArgumentParser
import RowKitListing

/// "Did you mean" for a command line that does not parse because of a mistyped subcommand or
/// option, in the spirit of the listing readers' hints for mistyped fields.
///
/// Consulted only after ArgumentParser has refused the command line, so it never stands in the
/// way of one that parses; it names the first word that is neither a subcommand nor an option of
/// the command, and the closest one that is (an option it is the start of, such as `--out` for
/// `--output`, or one within two edits).
enum CommandLineHints {
    /// The message for `arguments` (without the program name), or `nil` when every subcommand and
    /// option in it is known.
    static func problem(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let subcommands = RowKitCommand.configuration.subcommands
        guard let command = subcommands.first(where: { name(of: $0) == first }) else {
            guard first != "help" else { return nil }
            var visible: [String] = []
            for subcommand in subcommands where subcommand.configuration.shouldDisplay {
                visible.append(name(of: subcommand))
            }
            let hint = first.closest(in: visible).map { "; did you mean '\($0)'?" } ?? ""
            return "rowkit: unknown command '\(first)'\(hint) (see 'rowkit --help' for the commands)"
        }
        let known = options(of: command)
        for argument in arguments.dropFirst() {
            if argument == "--" { break }
            guard argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil else { continue }
            let option = String(argument.prefix { $0 != "=" })
            if known.contains(option) { continue }
            // A cluster of short flags (-qo) is known when each letter is.
            if !option.hasPrefix("--"), option.dropFirst().allSatisfy({ known.contains("-\($0)") }) { continue }
            let hint = suggestion(for: option, in: known).map { "; did you mean '\($0)'?" } ?? ""
            return "rowkit \(first): unknown option '\(option)'\(hint) (see 'rowkit \(first) --help' for the options)"
        }
        return nil
    }

    /// The message for `rowkit help <topic>` when the topic is not a command, or `nil`.
    static func unknownHelpTopic(in arguments: [String]) -> String? {
        guard arguments.count >= 2, arguments[0] == "help", !arguments[1].hasPrefix("-") else { return nil }
        let names = RowKitCommand.configuration.subcommands.map(name(of:))
        guard !names.contains(arguments[1]) else { return nil }
        return problem(in: Array(arguments.dropFirst()))
            ?? "rowkit: unknown command '\(ListingText.escaped(arguments[1]))' (see 'rowkit --help' for the commands)"
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }

    /// Every option name in the command's help, hidden ones included.
    static func options(of command: any ParsableCommand.Type) -> Set<String> {
        let help = command.helpMessage(includeHidden: true, columns: 10_000)
        var names: Set<String> = ["-h", "--help"]
        var current = ""
        for character in help + " " {
            if character.isLetter || character.isNumber || character == "-" {
                current.append(character)
                continue
            }
            if current.hasPrefix("-"), current.count > 1,
                current.dropFirst().first?.isLetter == true
                    || (current.hasPrefix("--") && current.dropFirst(2).first?.isLetter == true)
            {
                names.insert(current)
            }
            current = ""
        }
        return names
    }

    /// The known option `option` is the start of (when only one is), else the closest within two
    /// edits.
    private static func suggestion(for option: String, in known: Set<String>) -> String? {
        let long = known.filter { $0.hasPrefix("--") }.sorted()
        if option.hasPrefix("--"), option.count > 3 {
            let extending = long.filter { $0.hasPrefix(option) }
            if extending.count == 1 { return extending[0] }
        }
        return option.closest(in: option.hasPrefix("--") ? long : known.sorted())
    }
}
