// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastProtocol

/// `castctl volume 0..1`: the device volume (or, with --stream, the media stream's).
struct VolumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "volume", abstract: "Set the device volume, 0 to 1.")

    @OptionGroup var options: ClientOptions

    @Argument(help: "The level: 0 (silent) to 1 (full).")
    var level: Double

    @Flag(help: "Change the media stream's volume instead of the device's.")
    var stream = false

    func validate() throws {
        guard level.isFinite, (0...1).contains(level) else { throw ValidationError("The volume must be between 0 and 1 (e.g. 0.5).") }
    }

    func run() async throws {
        let level = level
        if stream {
            try await options.runMediaCommand { media throws(CastClientError) in _ = try await media.setStreamVolume(level) }
        } else {
            try await DeviceVolume.run(options) { session throws(CastClientError) in try await session.setVolume(level) }
        }
    }
}

/// Shared by volume, mute and unmute on the device volume.
enum DeviceVolume {
    static func run(_ options: ClientOptions, _ change: @Sendable (CastSession) async throws(CastClientError) -> ReceiverStatus) async throws {
        let status = try await options.withSession { session in try await change(session) }
        let v = status.volume
        let line = "Volume \(v?.level.map { Output.percent($0) } ?? "?")\(v?.muted == true ? " (muted)" : "")"
        options.emit(json: v, text: line)
    }
}
