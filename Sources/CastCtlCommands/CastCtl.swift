// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import Foundation

/// `castctl`: CastDeck's command line. Each subcommand lives in its own file; add yours
/// to `subcommands` (one per line).
///
/// Exit codes: 0 success, 1 failure (one line on stderr), 2 bad usage.
/// The `castctl` executable only calls `execute()`; tests parse arguments through `parseAsRoot`.
public struct CastCtl: AsyncParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "castctl",
        abstract: "Control Google Cast devices, or simulate one.",
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
            NextCommand.self,
            PrevCommand.self,
            QueueCommand.self,
            SendCommand.self,
            DiscoverCommand.self,
        ]
    )

    /// What the `castctl` executable runs: parse, run, and exit with castctl's status codes.
    /// (Not named `main`: ArgumentParser's synchronous `main()` would win the overload in
    /// main.swift and refuse an async root command.)
    public static func execute() async {
        do {
            var command = try parseAsRoot()
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
