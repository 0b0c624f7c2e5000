// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl next`
struct NextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "next", abstract: "Play the next item of the queue.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.queueNext() }
    }
}
