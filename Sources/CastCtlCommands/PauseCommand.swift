// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl pause`
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause playback.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.pause() }
    }
}
