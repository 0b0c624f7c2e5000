// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl skip-ad`
struct SkipAdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "skip-ad", abstract: "Skip the playing ad clip once it is skippable.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.skipAd() }
    }
}
