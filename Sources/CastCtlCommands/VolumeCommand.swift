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

    @Option(
        help: ArgumentHelp(
            "Change only this speaker of the group --device names: its name or id in the group, or its address.", valueName: "NAME|HOST:PORT"))
    var member: String?

    func validate() throws {
        guard level.isFinite, (0...1).contains(level) else { throw ValidationError("The volume must be between 0 and 1 (e.g. 0.5).") }
        if stream, member != nil { throw ValidationError("--stream and --member do not go together: a member has its own device volume.") }
    }

    func run() async throws {
        let level = level
        if let member {
            try await DeviceVolume.runOnMember(member, options) { session throws(CastClientError) in try await session.setVolume(level) }
        } else if stream {
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

    /// The same on one member of a group: found through the group (`GroupMember.locate`), then
    /// changed on the member's own connection, as the group's volume is not the member's.
    static func runOnMember(
        _ member: String, _ options: ClientOptions, _ change: @Sendable (CastSession) async throws(CastClientError) -> ReceiverStatus
    ) async throws {
        let (name, status) = try await options.withSession { group in
            let (name, address) = try await GroupMember.locate(member, in: group)
            let session = CastSession(device: address, configuration: group.configuration)
            do {
                let status = try await change(session)
                await session.disconnect()
                return (name, status)
            } catch let error as CastClientError {
                await session.disconnect()
                throw CommandFailure("\(name) (\(address)): \(error.description)")
            }
        }
        let v = status.volume
        options.emit(json: v, text: "\(name): volume \(GroupReport.volumeText(v?.level, v?.muted))")
    }
}
