// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol

// What `castctl status` says of the device's kind and of an app castctl did not start, as the
// window shows them (AppModel+ForeignApp.swift): the input a TV shows, standby, an Android TV
// app, the app's icon, and which of its media controls the app allows.
extension StatusCommand {
    static func inputLines(_ r: StatusReport) -> [String] {
        var lines: [String] = []
        if r.receiver?.isActiveInput == false { lines.append("Input:   the TV shows another input") }
        if r.receiver?.isStandBy == true { lines.append("Power:   standby") }
        return lines
    }

    static func otherAppLines(_ app: ReceiverApplication?, media: MediaStatus?) -> [String] {
        guard let app, app.isIdleScreen != true, ![CastAppID.defaultMediaReceiver, CastAppID.audioDefaultMediaReceiver].contains(app.appId.uppercased())
        else { return [] }
        var lines: [String] = []
        if app.appType == "ANDROID_TV" { lines.append("Type:    Android TV app (Cast Connect)") }
        if let icon = app.iconUrl, !icon.isEmpty { lines.append("Icon:    \(icon)") }
        if !app.handles(CastNamespace.mediaURN) {
            lines.append("Control: none")
        } else if let commands = media?.supportedMediaCommands {
            let names: [(MediaCommands, String)] = [
                (.pause, "pause"), (.seek, "seek"), (.streamVolume, "volume"), (.queueNext, "next"), (.queuePrev, "previous"),
                (.editTracks, "tracks"), (.playbackRate, "speed"),
            ]
            let allowed = names.filter { commands.contains($0.0) }.map(\.1)
            lines.append("Control: " + (allowed.isEmpty ? "none" : allowed.joined(separator: ", ")))
        }
        return lines
    }
}
