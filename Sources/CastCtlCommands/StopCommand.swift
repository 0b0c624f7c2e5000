// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl stop`
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop playback (the app keeps running).")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        // Where a link stopped is remembered for the next `castctl cast` of it (ResumeSupport.swift).
        try await options.runMediaCommandRememberingLink(positionBefore: true) { media throws(CastClientError) in _ = try await media.stop() }
    }
}
