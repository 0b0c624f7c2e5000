// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl unmute`
struct UnmuteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unmute", abstract: "Unmute the device (or, with --stream, the media stream).")

    @OptionGroup var options: ClientOptions

    @Flag(help: "Unmute the media stream instead of the device.")
    var stream = false

    func run() async throws {
        if stream {
            try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.setStreamMuted(false) }
        } else {
            try await DeviceVolume.run(options) { session throws(CastClientError) in try await session.setMuted(false) }
        }
    }
}
