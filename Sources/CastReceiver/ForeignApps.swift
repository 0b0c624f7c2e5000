// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Apps a sender like CastDeck cannot drive, as the simulator plays them: the ids, names,
// namespaces, icons and status texts real devices reported for them (the real-device corpus,
// file named beside each), so a sender meets them as it would at home. Their media is played
// by the simulator's own player with the app's `supportedMediaCommands`. They are launched by
// `--foreign-app NAME` (LAUNCH then works, as from a phone) or by the LAUNCH test hook (docs/receiver.md).

import CastProtocol

extension ReceiverApp {
    private init(
        _ id: String, _ name: String, _ namespaces: [String], icon: String = "", status: String? = nil, commands: MediaCommands? = nil,
        appType: String? = nil, universal: String? = nil
    ) {
        self.init(appId: id, displayName: name, namespaces: namespaces)
        iconUrl = icon
        statusText = status
        supportedMediaCommands = commands
        self.appType = appType
        universalAppId = universal
    }

    private static let cac = "urn:x-cast:com.google.cast.cac"
    private static let overlay = "urn:x-cast:com.google.cast.debugoverlay"

    /// The idle screen (chromecast-backdrop-fw1.28.json): listed with `isIdleScreen`.
    public static let backdrop = ReceiverApp(CastAppID.backdrop, "Backdrop", [overlay, cac, "urn:x-cast:com.google.cast.sse"], status: "")

    /// What a speaker runs for the Default Media Receiver (speaker-dmr-705d30c6-apptype.json).
    public static let audioDefaultMediaReceiver = ReceiverApp(
        CastAppID.audioDefaultMediaReceiver, "Default Media Receiver", [CastNamespace.mediaURN], status: "Default Media Receiver")

    /// YouTube's web receiver. Its namespaces and status text are the Android TV app's below;
    /// its commands (pause and seek only) are what media/app-no-media-no-requestid.json, an app
    /// the issue names as one of YouTube, Crackle, Netflix or Hulu, announced.
    public static let youtube = ReceiverApp(
        "233637DE", "YouTube", [CastNamespace.mediaURN, "urn:x-cast:com.google.cast.system", cac, "urn:x-cast:com.google.youtube.mdx"],
        status: "YouTube", commands: [.pause, .seek])

    /// Spotify (speaker-spotify.json, its icon included; media/speaker-spotify-paused.json's commands).
    public static let spotify = ReceiverApp(
        "CC32E753", "Spotify",
        [
            overlay, cac, "urn:x-cast:com.spotify.chromecast.secure.v1", "urn:x-cast:com.google.cast.test", "urn:x-cast:com.google.cast.broadcast",
            CastNamespace.mediaURN,
        ],
        icon: "https://lh3.googleusercontent.com/HOX9yqNu6y87Chb1lHYqhKVTQW43oFAFFe2ojx94yCLh0yMzgygTrM0RweAexApRWqq6UahgrWYimVgK",
        status: "Spotify", commands: MediaCommands(rawValue: 514383))

    /// Chrome tab mirroring (chromecast-tab-mirroring-fw1.28.json): lists the media namespace
    /// but has no media to show.
    public static let chromeMirroring = ReceiverApp(
        "0F5096E8", "Chrome Mirroring",
        ["urn:x-cast:com.google.cast.webrtc", CastNamespace.mediaURN, "urn:x-cast:com.google.cast.debug", "urn:x-cast:com.google.cast.remoting"],
        status: " (Tab)", commands: [])

    /// Android TV apps by the web app id whose LAUNCH starts them: YouTube as an Android TV on
    /// Google TV reported it (appType ANDROID_TV, the web id as universalAppId, "Youtube").
    static let androidTV: [String: ReceiverApp] = [
        youtube.appId: ReceiverApp(
            "2C6A6E3D", "YouTube", youtube.namespaces, status: "Youtube", commands: youtube.supportedMediaCommands, appType: "ANDROID_TV",
            universal: youtube.appId)
    ]

    /// The apps `--foreign-app` names.
    public static let foreign: [String: ReceiverApp] = ["youtube": youtube, "spotify": spotify, "mirroring": chromeMirroring]
}
