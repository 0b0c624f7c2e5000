// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Device kinds (`castctl receiver --kind …`): what a real device of each kind reports, so a
// sender meets the homes it will meet. Every value below is one seen in a capture of the
// real-device corpus (Tests/Fixtures/real-devices/receiver/, named beside it) or, where the
// corpus has none, says so.

import CastProtocol

/// A kind of Cast device the simulator can pretend to be.
public enum ReceiverKind: String, CaseIterable, Sendable {
    case chromecast
    case googleTV = "google-tv"
    case nestHub = "nest-hub"
    case speaker
    case projector
    case tv

    /// The model name the setup API and mDNS give.
    public var model: String {
        switch self {
        case .chromecast: "Chromecast"
        case .googleTV: "Chromecast with Google TV"
        case .nestHub: "Google Nest Hub"
        case .speaker: "Google Nest Mini"
        case .projector: "Projector"
        case .tv: "Smart TV"
        }
    }

    /// The mDNS `ca` bits: video out 1, audio out 4, audio in (a microphone) 8, master or fixed
    /// volume 2048, attenuation or fixed volume 4096 (CastDiscovery's CastCapabilities).
    public var capabilities: Int {
        switch self {
        case .chromecast, .googleTV, .projector, .tv: 4101
        case .nestHub: 1 | 4 | 8 | 2048
        case .speaker: 4 | 8 | 2048
        }
    }

    /// A speaker has no screen: it runs the audio-only Default Media Receiver.
    public var isAudioOnly: Bool { self == .speaker }

    /// The device volume when it starts: its control type and step.
    public var volume: Volume {
        switch self {
        // chromecast-backdrop-fw1.28.json
        case .chromecast: Volume(level: 1, muted: false, controlType: "attenuation", stepInterval: 0.05)
        // ccwgtv-idle-fixed-volume.json, projector-fixed-volume-active-input.json
        case .googleTV, .projector: Volume(level: 1, muted: false, controlType: "fixed", stepInterval: 0.04)
        // nest-hub-dmr-web.json, speaker-dmr-705d30c6-apptype.json
        case .nestHub, .speaker: Volume(level: 0.6, muted: false, controlType: "master", stepInterval: 0.02)
        // A TV's own speakers, as the Android TV in the YouTube (ANDROID_TV) capture reported.
        case .tv: Volume(level: 0.1, muted: false, controlType: "master", stepInterval: 0.01)
        }
    }

    /// Whether RECEIVER_STATUS carries `isActiveInput` and `isStandBy` (a device on a TV's or
    /// projector's HDMI, or the TV itself; projector-fixed-volume-active-input.json). Hubs and
    /// speakers have no input to switch.
    public var reportsInput: Bool {
        switch self {
        case .chromecast, .projector, .tv: true
        case .googleTV, .nestHub, .speaker: false
        }
    }

    /// A TV closes the cast app when its input is switched away (the app goes to the background
    /// and Android TV ends it); a dongle on HDMI keeps playing to an input nobody watches.
    public var closesAppOnInputSwitch: Bool { self == .tv }

    /// The app shown while nothing is cast (a Chromecast's and a hub's Backdrop,
    /// chromecast-backdrop-fw1.28.json); nil where the corpus shows no app running when idle.
    public var idleScreen: ReceiverApp? {
        switch self {
        case .chromecast, .nestHub: .backdrop
        case .googleTV, .speaker, .projector, .tv: nil
        }
    }

    /// Whether apps carry `appType` (WEB, ANDROID_TV), as newer firmware reports
    /// (nest-hub-dmr-web.json, speaker-dmr-705d30c6-apptype.json); the corpus's Chromecast
    /// captures have none.
    public var reportsAppType: Bool { self != .chromecast }

    /// Seconds with nothing playing before the device closes the running app and goes back to
    /// its home screen: a hub's idle timeout (10 minutes here; Google does not publish one).
    public var idleTimeout: Double? { self == .nestHub ? 600 : nil }

    /// Runs Android TV apps through Cast Connect: LAUNCH of a web app id starts its Android TV
    /// app (`appType` ANDROID_TV, the web id as `universalAppId`).
    public var runsAndroidTVApps: Bool { self == .googleTV || self == .tv }

    /// The app LAUNCH of `app` starts on this kind: a speaker's audio-only Default Media
    /// Receiver, an Android TV's app for a web id, or the app itself.
    func launched(_ app: ReceiverApp) -> ReceiverApp {
        var app = app
        if isAudioOnly, app.appId == CastAppID.defaultMediaReceiver {
            app = .audioDefaultMediaReceiver
        } else if runsAndroidTVApps, let android = ReceiverApp.androidTV[app.appId] {
            app = android
        }
        if reportsAppType, app.appType == nil { app.appType = "WEB" }
        return app
    }

    /// Applies the kind to a configuration: model, volume is read by the core, idle timeout.
    public func configure(_ config: inout ReceiverConfiguration) {
        config.kind = self
        config.model = model
        if config.idleTimeout == nil { config.idleTimeout = idleTimeout }
    }
}
