// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl rate R`
struct RateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rate", abstract: "Set the playback rate (e.g. 0.5, 1, 2).")

    @OptionGroup var options: ClientOptions

    @Argument(help: "The rate; 1 is normal speed.")
    var rate: Double

    func validate() throws {
        guard rate.isFinite, rate > 0 else { throw ValidationError("The rate must be a number greater than 0.") }
    }

    func run() async throws {
        let rate = rate
        try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.setPlaybackRate(rate) }
    }
}
