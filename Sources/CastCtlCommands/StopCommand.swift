// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl stop`
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop playback (the app keeps running).")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.stop() }
    }
}
