// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import ArgumentParser
import CastClient
import CastProtocol

/// `castctl like` and `castctl dislike`: rate the playing item (USER_ACTION), as a phone's
/// thumbs up and down do on receivers that offer it (music apps; `castctl receiver --user-actions`).
protocol UserActionCommand: AsyncParsableCommand {
    static var action: UserAction { get }
    var options: ClientOptions { get }
    /// Take the rating back (USER_ACTION with `clear`).
    var undo: Bool { get }
}

extension UserActionCommand {
    func run() async throws {
        let undo = self.undo
        try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.userAction(Self.action, clear: undo) }
    }
}

struct LikeCommand: UserActionCommand {
    static let configuration = CommandConfiguration(commandName: "like", abstract: "Like what is playing (where the app offers it).")
    static let action = UserAction.like
    @OptionGroup var options: ClientOptions
    @Flag(help: "Take the like back.") var undo = false
}

struct DislikeCommand: UserActionCommand {
    static let configuration = CommandConfiguration(commandName: "dislike", abstract: "Dislike what is playing (where the app offers it).")
    static let action = UserAction.dislike
    @OptionGroup var options: ClientOptions
    @Flag(help: "Take the dislike back.") var undo = false
}
