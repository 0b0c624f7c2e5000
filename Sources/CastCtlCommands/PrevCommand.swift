// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl prev`
struct PrevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "prev", abstract: "Play the previous item of the queue.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.queuePrev() }
    }
}
