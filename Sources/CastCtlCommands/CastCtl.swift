// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import CastClient
import CastCore
import Foundation

/// `castctl`: CastDeck's command line. Each subcommand lives in its own file; add yours
/// to `subcommands` (one per line).
///
/// Exit codes: 0 success, 1 failure (one line on stderr), 2 bad usage.
/// The `castctl` executable only calls `execute()`; tests parse arguments through `parseAsRoot`.
public struct CastCtl: AsyncParsableCommand {
    public init() {}

    /// ArgumentParser's configuration: `standard`, except while `execute` parses quickly.
    public static var configuration: CommandConfiguration { parsingQuickly ? quick : standard }

    static let standard = CommandConfiguration(
        commandName: "castctl",
        abstract: "Control Google Cast devices, or simulate one.",
        version: CastDeckVersion.string,
        subcommands: [
            ReceiverCommand.self,
            StatusCommand.self,
            WatchCommand.self,
            CastCommand.self,
            PlayCommand.self,
            PauseCommand.self,
            StopCommand.self,
            SeekCommand.self,
            RateCommand.self,
            VolumeCommand.self,
            MuteCommand.self,
            UnmuteCommand.self,
            TracksCommand.self,
            StyleCommand.self,
            SkipAdCommand.self,
            LikeCommand.self,
            DislikeCommand.self,
            NextCommand.self,
            PrevCommand.self,
            QueueCommand.self,
            MoveCommand.self,
            SendCommand.self,
            MirrorCommand.self,
            DiscoverCommand.self,
            MirrorCommand.self,
        ]
    )

    /// `standard` with `_superCommandName` set. That name shows only in help and usage text,
    /// and it makes ArgumentParser skip its check for `--generate-completion-script`, which
    /// parses two more commands (reflection, first-use conformance lookups) on every run: a
    /// tenth of `castctl status`. `execute` uses it only when no argument asks for a
    /// completion script. Errors are never taken from the quick parse, and anything but one of
    /// our commands (ArgumentParser's help command) is parsed again with `standard`, so help,
    /// usage and errors read as they always did.
    private static let quick: CommandConfiguration = {
        var c = standard
        c._superCommandName = "castctl"
        return c
    }()
    private nonisolated(unsafe) static var parsingQuickly = false

    /// The command `arguments` name, parsed as `parseAsRoot` does (see `quick` and
    /// `QuickCommandLine`).
    static func parseForExecution(_ arguments: [String]) throws -> any ParsableCommand {
        if let command = QuickCommandLine.parse(arguments) { return command }
        if !arguments.contains(where: { $0.hasPrefix("--generate-completion-script") }) {
            parsingQuickly = true
            let command = try? parseAsRoot(arguments)
            parsingQuickly = false
            if let command, isOurs(type(of: command)) { return command }
        }
        return try parseAsRoot(arguments)
    }

    /// One of castctl's subcommands (or theirs), not ArgumentParser's help command.
    private static func isOurs(_ type: any ParsableCommand.Type) -> Bool {
        func search(_ list: [any ParsableCommand.Type]) -> Bool {
            list.contains { ObjectIdentifier($0) == ObjectIdentifier(type) || search($0.configuration.subcommands) }
        }
        return search(standard.subcommands)
    }

    /// Subcommands that never talk to a device: for the others, the first connection's
    /// one-time work starts before the command line is parsed.
    static let offline: Set<String> = ["receiver", "discover", "help", "-h", "--help", "--version", "--generate-completion-script"]

    /// What the `castctl` executable runs: parse, run, and exit with castctl's status codes.
    /// (Not named `main`: ArgumentParser's synchronous `main()` would win the overload in
    /// main.swift and refuse an async root command.)
    public static func execute() async {
        if let first = CommandLine.arguments.dropFirst().first, !offline.contains(first) {
            CastConnection.prepareFirstConnection()
        }
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if var command = QuickCommandLine.parse(arguments) {
                // Already known to be async: no runtime conformance check as below.
                try await command.run()
                return
            }
            var command = try parseForExecution(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            Console.err("castctl: \(failure.message)\n")
            Foundation.exit(exitStatus(for: failure))
        } catch {
            let status = exitStatus(for: error)
            if status == 0 {
                print(fullMessage(for: error))
            } else {
                Console.err("\(fullMessage(for: error))\n")
            }
            Foundation.exit(status)
        }
    }

    /// The exit status castctl promises for an error: 0 for --help and --version, 2 for bad
    /// usage (ArgumentParser says 64), 1 for everything else.
    public static func exitStatus(for error: any Error) -> Int32 {
        if error is CommandFailure { return 1 }
        let code = exitCode(for: error)
        if code == .success { return 0 }
        return code == .validationFailure ? 2 : 1
    }
}

/// A failure a subcommand reports: one line on stderr and exit status 1.
struct CommandFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
