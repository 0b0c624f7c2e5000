// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import ArgumentParser
import CastClient
import CastProtocol
import Foundation

/// `castctl status`: the device, its running app and what plays.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the device's volume, running app and media status.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let device = try await options.target.resolve()
        let report = try await options.withSession { session in
            // Ask a group for its members on the link (a speaker group answers before the
            // receiver status; other devices stay silent).
            _ = await session.groupUpdates()
            let status = try await session.connect()
            await session.settledAuthentication()
            var info: SessionInfo?
            // Join the running app to read its media; one that cannot be joined (no transport
            // id) or has no media is still shown from the receiver status.
            if let app = status.applications?.first(where: { $0.isIdleScreen != true }), app.isJoinable {
                do {
                    info = try await session.join(appID: app.appId)
                } catch let error as CastClientError {
                    // The app ended between the status and the join (stopped from the TV or by
                    // another sender): the device runs nothing now, which is what status says.
                    switch error {
                    case .noRunningApp, .sessionNotFound: _ = try await session.requestReceiverStatus()
                    default: throw error
                    }
                }
            }
            return await StatusReport(device: device.name, session: session, info: info)
        }
        options.emit(json: report, text: Self.text(report))
    }

    static func text(_ r: StatusReport) -> String {
        var lines = ["Device:  \(r.device)", "Trust:   \(r.authentication.text)"]
        if let v = r.receiver?.volume {
            let level = v.level.map { Output.percent($0) } ?? "?"
            lines.append("Volume:  \(level)\(v.muted == true ? " (muted)" : "")\(v.controlType == "fixed" ? " (fixed: set on the TV or amplifier)" : "")")
        }
        if let group = r.group { lines.append(group.line) }
        lines += Self.inputLines(r)
        let shown = r.receiver?.applications?.first { $0.appId == r.session?.appID } ?? r.receiver?.applications?.first
        if let s = r.session {
            lines.append("App:     \(s.displayName ?? s.appID) (\(s.appID)), session \(s.sessionID)")
        } else if let app = shown {
            lines.append("App:     \(app.displayName ?? app.appId) (\(app.isIdleScreen == true ? "idle screen" : app.appId))")
        } else {
            lines.append("App:     none")
        }
        // What the app says it is doing, for media apps and others alike.
        if let text = shown?.statusText?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text != shown?.displayName {
            lines.append("Status:  \(text)")
        }
        lines += Self.otherAppLines(shown, media: r.media)
        if r.session != nil {
            lines.append("Media:   " + r.mediaLine)
            if let ad = r.ad { lines.append("Ad:      " + Self.adLine(ad)) }
            if let m = r.media {
                if let v = m.volume {
                    lines.append("Stream:  volume \(v.level.map { Output.percent($0) } ?? "?")\(v.muted == true ? " (muted)" : "")")
                }
                if let tracks = m.effectiveMedia?.tracks, !tracks.isEmpty {
                    let active = Set(m.activeTrackIds ?? [])
                    let list = tracks.map { "\($0.trackId)\(active.contains($0.trackId) ? "*" : "") \($0.language ?? $0.name ?? $0.type.rawValue)" }
                    lines.append("Tracks:  " + list.joined(separator: ", ") + "  (* = on)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
