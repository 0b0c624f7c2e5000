// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl mute`
struct MuteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mute", abstract: "Mute the device (or, with --stream, the media stream).")

    @OptionGroup var options: ClientOptions

    @Flag(help: "Mute the media stream instead of the device.")
    var stream = false

    func run() async throws {
        if stream {
            try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.setStreamMuted(true) }
        } else {
            try await DeviceVolume.run(options) { session throws(CastClientError) in try await session.setMuted(true) }
        }
    }
}
