// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastDiscovery
import CastProtocol

// Apps CastDeck did not start (YouTube, Spotify, Netflix, an Android TV app, tab mirroring) and
// what kind of device this is (issue 30). The window names such an app with its icon (`iconUrl`
// through the image cache) and status text; when it speaks the media namespace its media is
// shown with the controls its supportedMediaCommands allow (the command table's rules read
// them); Stop ends that app, Cast something else replaces it with the Default Media Receiver.
extension AppModel {
    /// An app running on the device that CastDeck did not launch.
    public struct OtherApp: Equatable, Sendable {
        public var name: String
        /// What the app says it does (" (Tab)"), trimmed; nil when it says only its name ("Youtube" for YouTube).
        public var statusText: String?
        public var iconUrl: String?
        /// "ANDROID_TV" for an Android TV app (Cast Connect), "WEB" or nil for a web receiver.
        public var appType: String?
        /// It speaks the media namespace: its media is shown and controlled as far as it allows.
        public var speaksMedia: Bool
        public var sessionID: String
        public var isAndroidTV: Bool { appType == "ANDROID_TV" }
    }

    /// The app ids CastDeck launches itself (on a speaker the Default Media Receiver runs as its
    /// audio-only twin).
    static let ownApps: Set<String> = [CastAppID.defaultMediaReceiver, CastAppID.audioDefaultMediaReceiver]

    /// The running app CastDeck did not start, if any (not the idle screen).
    public var otherApp: OtherApp? {
        guard isConnected, let app = receiverStatus?.applications?.first(where: { $0.isIdleScreen != true }),
            !Self.ownApps.contains(app.appId.uppercased()), !isOwnMirror(app.appId)
        else { return nil }
        let name = app.displayName ?? app.appId
        let status = app.statusText?.trimmingCharacters(in: .whitespaces)
        return OtherApp(
            name: name, statusText: status.flatMap { $0.isEmpty || $0.lowercased() == name.lowercased() ? nil : $0 },
            iconUrl: app.iconUrl.flatMap { $0.isEmpty ? nil : $0 },
            appType: app.appType, speaksMedia: app.handles(CastNamespace.mediaURN), sessionID: app.sessionId)
    }

    /// The app running on the device that CastDeck cannot control (no media namespace), by
    /// its display name: "YouTube is running on Living Room TV".
    public var foreignApp: String? {
        guard let app = otherApp, !app.speaksMedia || !hasMedia else { return nil }
        return app.name
    }

    /// The TV this device is plugged into shows another input (RECEIVER_STATUS isActiveInput).
    public var isInputSwitchedAway: Bool { isConnected && receiverStatus?.isActiveInput == false }
    /// The TV or projector is in standby.
    public var isInStandby: Bool { isConnected && receiverStatus?.isStandBy == true }

    /// A device with no screen (a speaker): it is offered no video and no subtitles. Known from
    /// what it advertised (audio out, no video out) or from the audio-only Default Media
    /// Receiver it runs.
    public var isAudioOnlyDevice: Bool {
        guard isConnected else { return false }
        if receiverStatus?.applications?.contains(where: { $0.appId.uppercased() == CastAppID.audioDefaultMediaReceiver }) == true { return true }
        guard let device = connectedDevice?.device, device.source == .discovered else { return false }
        return device.capabilities.contains(.audioOut) && !device.capabilities.contains(.videoOut)
    }

    /// Whether Stop may end the other app now.
    var canStopOtherApp: Bool { otherApp != nil && !isReconnecting }

    /// Ends the app CastDeck did not start (Stop on the devices page); the link stays.
    func stopOtherApp() async {
        guard let app = otherApp else { return }
        endedByUs.insert(app.sessionID)
        await run { try await $0.stopApp(sessionID: app.sessionID) }
    }

    /// Before loading: the app that takes our LOAD is the Default Media Receiver. Another app
    /// joined (YouTube…) is replaced, as a phone's "Cast something else" does, and not told as
    /// an ending.
    func startOwnApp(_ session: CastSession) async throws(CastClientError) {
        let joined = await session.sessionInfo
        if let joined, Self.ownApps.contains(joined.appID.uppercased()) { return }
        if let other = otherApp { endedByUs.insert(other.sessionID) }
        if let joined { endedByUs.insert(joined.sessionID) }
        try await session.start()
    }

    /// Fetches the other app's icon through the artwork provider (the image cache).
    func followForeignApp() {
        let url = otherApp?.iconUrl
        guard url != foreignIconKey else { return }
        foreignIconKey = url
        foreignAppIconPath = nil
        guard let url else { return }
        let scale = displayScale
        Task { [weak self, artwork] in
            // The icon sits where a device row's artwork does: the same size.
            let path = await artwork.localPath(for: [CastImage(url: url)], use: .deviceList, scale: scale)
            guard let self, self.foreignIconKey == url else { return }
            self.foreignAppIconPath = path
        }
    }
}
