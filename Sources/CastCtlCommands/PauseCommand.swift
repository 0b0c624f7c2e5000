// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl pause`
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause playback.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        // Where a link stopped is remembered for the next `castctl cast` of it (ResumeSupport.swift).
        try await options.runMediaCommandRememberingLink(positionBefore: false) { media throws(CastClientError) in _ = try await media.pause() }
    }
}
