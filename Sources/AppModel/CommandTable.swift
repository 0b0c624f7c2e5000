// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol

/// One command of the window, as one value: what it is called, its keys, its parameter, when it
/// is enabled, what it does, and the sentences for its refusals. This file is the command
/// table: the names (`AppAction.Name`, the GAction names) and `AppAction.Name.entry`, one
/// entry per name; buttons (GActions "win.<name>", CastDeckUI's ModelActions), keys,
/// menus, MPRIS and the mini player all reach the model through this table
/// (`AppModel.perform(_:)`), and so do the tests.
public struct AppCommand: Sendable {
    let title: @Sendable () -> String
    /// Keyboard shortcuts that work wherever the focus is, in GTK accelerator syntax.
    public let accelerators: [String]
    /// Keys that are shortcuts only when the focused widget has no use for them.
    public let yieldingKeys: [String]
    public let parameter: AppAction.Parameter
    /// The value a command without a GAction parameter carries (seek ±10 s, ±30 s).
    let implied: AppAction.Argument
    let enabled: @MainActor @Sendable (AppModel) -> Bool
    /// Why the command is not enabled now, when a person would want to know.
    let refusal: (@MainActor @Sendable (AppModel) -> String?)?
    /// The sentence when the receiver answers that it does not support this command.
    let notSupported: (@Sendable () -> String)?
    let state: (@MainActor @Sendable (AppModel) -> AppActionState?)?
    let run: @MainActor @Sendable (AppModel, AppAction.Argument) async -> Void

    /// What a menu item or the shortcuts window calls it (translated).
    public var label: String { title() }

    init(
        _ title: @escaping @Sendable () -> String, keys: [String] = [], yielding: [String] = [],
        parameter: AppAction.Parameter = .none, implied: AppAction.Argument = .none,
        enabled: @escaping @MainActor @Sendable (AppModel) -> Bool,
        refusal: (@MainActor @Sendable (AppModel) -> String?)? = nil, notSupported: (@Sendable () -> String)? = nil,
        state: (@MainActor @Sendable (AppModel) -> AppActionState?)? = nil,
        run: @escaping @MainActor @Sendable (AppModel, AppAction.Argument) async -> Void
    ) {
        self.title = title
        self.accelerators = keys
        self.yieldingKeys = yielding
        self.parameter = parameter
        self.implied = implied
        self.enabled = enabled
        self.refusal = refusal
        self.notSupported = notSupported
        self.state = state
        self.run = run
    }

    /// Every command, by name.
    static let table: [AppAction.Name: AppCommand] = Dictionary(uniqueKeysWithValues: AppAction.Name.allCases.map { ($0, $0.entry) })

    /// The command `perform` is running in this task (failures are explained from it).
    @TaskLocal static var performing: AppAction.Name?
}

extension AppAction {
    /// The action's stable name: the GAction name in the window ("win.<raw value>"), and what
    /// MPRIS or tests use to look a command up. One name per command table entry.
    public enum Name: String, CaseIterable, Sendable {
        case togglePlayPause = "toggle-play"
        case play
        case pause
        case seekBackward = "seek-back"
        case seekForward = "seek-forward"
        case seekBackward30 = "seek-back-30"
        case seekForward30 = "seek-forward-30"
        case seekTo = "seek-to"
        case goToLive = "go-to-live"
        /// A chapter of `AppModel.chapters` by its index (the Chapters menu).
        case seekToChapter = "chapter"
        case nextChapter = "chapter-next"
        case previousChapter = "chapter-prev"
        case stopCasting = "stop-casting"
        case skipAd = "skip-ad"
        case openAdLink = "learn-more"
        case setRate = "rate"
        case toggleMute = "toggle-mute"
        case setVolume = "volume"
        case selectTextTrack = "text-track"
        case selectAudioTrack = "audio-track"
        case applyStyle = "apply-style"
        case useStyleAsDefault = "use-style-as-default"
        case castSample = "cast-sample"
        case burnSubtitles = "burn-subtitles"
        case playAgain = "play-again"
        case chooseLink = "cast-link"
        case chooseFiles = "cast-file"
        case disconnect
        case queueNext = "queue-next"
        case queuePrev = "queue-prev"
        case queueJump = "queue-jump"
        case queueRemove = "queue-remove"
        case queueMoveUp = "queue-move-up"
        case queueMove = "queue-move"
        case queueMoveDown = "queue-move-down"
        case queuePlayNext = "queue-play-next"
        case cycleRepeat = "queue-repeat"
        /// A repeat mode by its index in `AppModel.repeatModes` (MPRIS's LoopStatus sets it).
        case setRepeatMode = "queue-repeat-mode"
        case toggleShuffle = "queue-shuffle"
        case like
        case dislike
        case showPreferences = "preferences"
        case toggleRememberPositions = "remember-positions"
        /// Loads again, where it stood, what went away with its session (AppModel+SessionEnd).
        case resumeEnded = "resume-ended"
        /// Ends the app CastDeck did not start (AppModel+ForeignApp).
        case stopOtherApp = "stop-other-app"
        /// Opens Move to… (the dialog of devices to move playback to; AppModel+Move).
        case moveTo = "move-to"
        /// Moves playback to the dialog's device at this index of `moveTargets`.
        case moveToDevice = "move-to-device"
        /// Plays on a speaker group that holds both this device and the dialog's device at this
        /// index of `moveTargets` (AppModel+Group).
        case playOnGroup = "play-on-group"
        /// Screen mirroring (AppModel+Mirror, CommandTable+Mirror): the dialog (for the connected
        /// device, or `devices[i]`), the dialog's Cast to `devices[i]`, the desktop's sound (to
        /// the connected device, or `devices[i]`), and Stop.
        case castScreen = "cast-screen"
        case castScreenTo = "cast-screen-to"
        case mirrorScreen = "mirror-screen"
        case castDesktopAudio = "cast-desktop-audio"
        case castDesktopAudioTo = "cast-desktop-audio-to"
        case stopMirroring = "stop-mirroring"

        /// This command's entry in the table.
        public var command: AppCommand { AppCommand.table[self]! }

        public var parameter: Parameter { command.parameter }
        /// Keyboard shortcuts that work wherever the focus is, in GTK accelerator syntax.
        public var accelerators: [String] { command.accelerators }
        /// Keys that are shortcuts only when the focused widget has no use for them (Space on a
        /// focused button presses it; arrows on a focused slider move it). The window checks
        /// the focus before it runs these (MainWindow.handleKey).
        public var yieldingKeys: [String] { command.yieldingKeys }
        /// What a menu item or the shortcuts window calls it (translated).
        public var label: String { command.label }

        /// The action for this name with its parameter (nil when the parameter is missing or of
        /// the wrong kind, and for `pair`, which only a gesture makes).
        public func action(double: Double? = nil, int: Int? = nil) -> AppAction? {
            switch parameter {
            case .none: AppAction(self, command.implied)
            case .double: double.map { AppAction(self, .double($0)) }
            case .int: int.map { AppAction(self, .int($0)) }
            case .pair: nil
            }
        }
    }
}

// The commands that carry a value, spelled as before at the call sites (`.setRate(2)`).
extension AppAction {
    /// Relative seek in seconds (negative: backward); ±30 s and more use the 30 s names.
    public static func seekBy(_ delta: Double) -> AppAction {
        AppAction(delta < 0 ? (delta <= -30 ? .seekBackward30 : .seekBackward) : (delta >= 30 ? .seekForward30 : .seekForward), .double(delta))
    }
    /// Absolute seek in seconds of content time.
    public static func seekTo(_ seconds: Double) -> AppAction { AppAction(.seekTo, .double(seconds)) }
    /// Playback speed; the receiver is asked for exactly this rate.
    public static func setRate(_ rate: Double) -> AppAction { AppAction(.setRate, .double(rate)) }
    /// Device volume, 0…1.
    public static func setVolume(_ level: Double) -> AppAction { AppAction(.setVolume, .double(level)) }
    /// A text track id, or nil for subtitles off.
    public static func selectTextTrack(_ id: Int?) -> AppAction { AppAction(.selectTextTrack, .int(id ?? -1)) }
    public static func selectAudioTrack(_ id: Int) -> AppAction { AppAction(.selectAudioTrack, .int(id)) }
    /// Cast the playing local file again with this embedded subtitle drawn in (nil: none).
    public static func burnSubtitles(_ number: Int?) -> AppAction { AppAction(.burnSubtitles, .int(number ?? -1)) }
    public static func queueJump(_ id: Int) -> AppAction { AppAction(.queueJump, .int(id)) }
    public static func queueRemove(_ id: Int) -> AppAction { AppAction(.queueRemove, .int(id)) }
    public static func queueMoveUp(_ id: Int) -> AppAction { AppAction(.queueMoveUp, .int(id)) }
    public static func queueMoveDown(_ id: Int) -> AppAction { AppAction(.queueMoveDown, .int(id)) }
    public static func queuePlayNext(_ id: Int) -> AppAction { AppAction(.queuePlayNext, .int(id)) }
    /// Move a queue item to where another one is (a row dragged onto another row).
    public static func queueMove(_ id: Int, onto target: Int) -> AppAction { AppAction(.queueMove, .pair(id, target)) }
}

extension AppModel {
    /// Media is loaded and the device is reachable (while reconnecting nothing reaches it:
    /// only Disconnect works).
    var controlsMedia: Bool { hasMedia && isConnected }

    var canSeek: Bool { controlsMedia && supports(.seek) && !isPlayingAd }

    /// Said when a seek is asked for during an ad.
    var seekRefusal: String? { isPlayingAd ? tr("Seeking is not possible while an ad plays.") : nil }

    /// Repeat all (with or without shuffle) wraps Next and Previous round the queue.
    var queueWraps: Bool { queue.repeatMode == .all || queue.repeatMode == .allAndShuffle }
}

extension AppAction.Name {
    /// The command table: one entry per command.
    var entry: AppCommand {
        switch self {
        case .togglePlayPause:
            AppCommand(
                { tr("Play or pause") }, yielding: ["space"],
                enabled: { $0.controlsMedia && ($0.supports(.pause) || !$0.isPlaying) },
                run: { m, _ in await m.togglePlayPause() })
        case .play:
            AppCommand(
                { tr("Play") }, enabled: { $0.controlsMedia && !$0.isPlaying },
                run: { m, _ in await m.togglePlayPause() })
        case .pause:
            AppCommand(
                { tr("Pause") }, enabled: { $0.controlsMedia && $0.isPlaying && $0.supports(.pause) },
                run: { m, _ in await m.togglePlayPause() })
        case .seekBackward:
            AppCommand(
                { tr("Seek backward 10 seconds") }, yielding: ["Left"], implied: .double(-10),
                enabled: { $0.canSeek }, refusal: { $0.seekRefusal }, run: { m, a in await m.seek(by: a.double ?? -10) })
        case .seekForward:
            AppCommand(
                { tr("Seek forward 10 seconds") }, yielding: ["Right"], implied: .double(10),
                enabled: { $0.canSeek }, refusal: { $0.seekRefusal }, run: { m, a in await m.seek(by: a.double ?? 10) })
        case .seekBackward30:
            AppCommand(
                { tr("Seek backward 30 seconds") }, implied: .double(-30),
                enabled: { $0.canSeek }, refusal: { $0.seekRefusal }, run: { m, a in await m.seek(by: a.double ?? -30) })
        case .seekForward30:
            AppCommand(
                { tr("Seek forward 30 seconds") }, implied: .double(30),
                enabled: { $0.canSeek }, refusal: { $0.seekRefusal }, run: { m, a in await m.seek(by: a.double ?? 30) })
        case .seekTo:
            AppCommand(
                { tr("Position") }, parameter: .double, enabled: { $0.canSeek && $0.seekableRange != nil },
                refusal: { $0.seekRefusal }, run: { m, a in await m.seek(to: a.double ?? 0) })
        case .goToLive:
            // A live stream with a window (AppModel+Live.swift); the button shows only behind live.
            AppCommand(
                { tr("Go to Live") }, enabled: { $0.canSeek && $0.live?.liveEdge != nil },
                refusal: { $0.seekRefusal }, run: { m, _ in await m.goToLive() })
        case .seekToChapter:
            AppCommand(
                { tr("Chapters") }, parameter: .int, enabled: { $0.canSeek && $0.hasChapters }, refusal: { $0.seekRefusal },
                state: { .int($0.chapterIndex(at: $0.position) ?? -1) },
                run: { m, a in if let i = a.int { await m.seekToChapter(i) } })
        case .nextChapter:
            // PgDn and PgUp, as in mpv; a focused slider or list keeps them (MainWindow.handleKey).
            // GDK may name the keys by their other X names, Next and Prior.
            AppCommand(
                { tr("Next chapter") }, yielding: ["Page_Down", "Next"], enabled: { $0.canSeek && $0.hasChapters },
                refusal: { $0.seekRefusal }, run: { m, _ in await m.seekToNextChapter() })
        case .previousChapter:
            AppCommand(
                { tr("Previous chapter") }, yielding: ["Page_Up", "Prior"], enabled: { $0.canSeek && $0.hasChapters },
                refusal: { $0.seekRefusal }, run: { m, _ in await m.seekToPreviousChapter() })
        case .stopCasting:
            AppCommand({ tr("Stop Casting") }, enabled: { $0.controlsMedia }, run: { m, _ in await m.run { try await $0.media.stop() } })
        case .skipAd:
            AppCommand(
                { tr("Skip Ad") }, enabled: { $0.adState?.isSkippable == true },
                refusal: { m in
                    m.adState.map { ad in
                        ad.skippableIn.map { tr("This ad can be skipped in {0} s.", Int(min($0, 1e9))) } ?? tr("This ad cannot be skipped.")
                    }
                },
                notSupported: { tr("This ad cannot be skipped yet.") },
                run: { m, _ in await m.skipAd() })
        case .openAdLink: AppCommand.openAdLink  // AppModel+Ads.swift
        case .setRate:
            AppCommand(
                { tr("Playback speed") }, parameter: .double, enabled: { $0.controlsMedia && $0.supports(.playbackRate) },
                refusal: { $0.controlsMedia ? tr("This receiver cannot change the playback speed.") : nil },
                notSupported: { tr("This receiver cannot change the playback speed.") },
                state: { .double($0.selectedRate) },
                run: { m, a in
                    let rate = a.double ?? 1
                    await m.run { try await $0.media.setPlaybackRate(rate) }
                })
        case .toggleMute:
            // The device's mute (as Google's Cast dialog: the device, not the stream).
            AppCommand(
                { tr("Mute") }, enabled: { $0.controlsVolume }, state: { .bool($0.isMuted) },
                run: { m, _ in
                    let muted = !m.isMuted
                    await m.run { try await $0.setMuted(muted) }
                })
        case .setVolume:
            // The device's volume (SET_VOLUME on the receiver namespace), 0…1, not the stream's.
            AppCommand(
                { tr("Volume") }, parameter: .double, enabled: { $0.controlsVolume },
                run: { m, a in
                    let level = min(1, max(0, a.double ?? 0))
                    await m.run { try await $0.setVolume(level) }
                })
        case .selectTextTrack:
            AppCommand(
                { tr("Subtitles") }, parameter: .int, enabled: { $0.hasTracksToChoose },
                state: { .int($0.activeTextTrackID ?? -1) }, run: { m, a in await m.selectTextTrack(a.optionalID) })
        case .selectAudioTrack:
            AppCommand(
                { tr("Audio") }, parameter: .int, enabled: { $0.hasTracksToChoose },
                state: { .int($0.activeAudioTrackID ?? $0.audioTracks.first?.trackId ?? -1) },
                run: { m, a in if let id = a.int { await m.selectAudioTrack(id) } })
        case .applyStyle:
            // Subtitles are drawn over a moving picture: music and photos have none to style.
            AppCommand(
                { tr("Apply") },
                enabled: { m in
                    m.controlsMedia && m.mediaKind == .video && !m.isAudioOnlyDevice && (m.supports(.editTracks) || !m.textTracks.isEmpty)
                }, run: { m, _ in await m.applyStyle() })
        case .useStyleAsDefault:
            AppCommand({ tr("Use as Default") }, enabled: { _ in true }, run: { m, _ in m.useStyleAsDefault() })
        case .castSample:
            AppCommand(
                { tr("Cast Sample") }, enabled: { $0.isConnected && $0.sampleMedia != nil && !$0.isAudioOnlyDevice },
                run: { m, _ in await m.castSample() })
        case .burnSubtitles:
            AppCommand(
                { tr("Burn In Subtitles") }, parameter: .int, enabled: { $0.controlsMedia && !$0.burnableSubtitles.isEmpty },
                state: { .int($0.burnableSubtitles.first { $0.isBurned }?.number ?? -1) },
                run: { m, a in await m.burnSubtitles(a.optionalID) })
        case .playAgain:
            AppCommand(
                { tr("Play Again") }, enabled: { $0.isConnected && $0.lastLoad != nil && $0.phase.isOver },
                run: { m, _ in await m.playAgain() })
        case .chooseLink:
            AppCommand(
                { tr("Cast a Link…") }, keys: ["<Control>l"], enabled: { $0.linkPrompt != nil },
                run: { m, _ in m.linkPrompt?() })
        case .chooseFiles:
            // Without a device the files wait until one is chosen (castFiles).
            AppCommand(
                { tr("Cast a File…") }, keys: ["<Control>o"], enabled: { $0.filePicker != nil },
                run: { m, _ in m.filePicker?() })
        case .disconnect:
            AppCommand({ tr("Disconnect") }, enabled: { $0.isConnected || $0.isReconnecting }, run: { m, _ in await m.disconnect() })
        case .queueNext: AppCommand.queueNext  // CommandTable+Queue.swift
        case .queuePrev: AppCommand.queuePrev  // CommandTable+Queue.swift
        case .queueJump: AppCommand.queueJump  // CommandTable+Queue.swift
        case .queueRemove: AppCommand.queueRemove  // CommandTable+Queue.swift
        case .queueMoveUp: AppCommand.queueMoveUp  // CommandTable+Queue.swift
        case .queueMove: AppCommand.queueMove  // CommandTable+Queue.swift
        case .queueMoveDown: AppCommand.queueMoveDown  // CommandTable+Queue.swift
        case .queuePlayNext: AppCommand.queuePlayNext  // CommandTable+Queue.swift
        case .cycleRepeat: AppCommand.cycleRepeat  // CommandTable+Queue.swift
        case .setRepeatMode: AppCommand.setRepeatMode  // CommandTable+Queue.swift
        case .toggleShuffle: AppCommand.toggleShuffle  // CommandTable+Queue.swift
        case .like:
            // A thumbs up: pressed again, it is taken back (USER_ACTION with clear).
            AppCommand(
                { tr("Like") }, enabled: { $0.controlsMedia && $0.supports(.like) },
                notSupported: { tr("This app does not take likes.") },
                state: { .bool($0.userActions.contains(.like)) }, run: { m, _ in await m.rate(.like) })
        case .dislike:
            AppCommand(
                { tr("Dislike") }, enabled: { $0.controlsMedia && $0.supports(.dislike) },
                notSupported: { tr("This app does not take dislikes.") },
                state: { .bool($0.userActions.contains(.dislike)) }, run: { m, _ in await m.rate(.dislike) })
        case .showPreferences:
            AppCommand(
                { tr("Preferences") }, keys: ["<Control>comma"], enabled: { $0.preferencesPrompt != nil },
                run: { m, _ in m.preferencesPrompt?() })
        case .toggleRememberPositions:
            AppCommand(
                { tr("Remember where playback stopped") }, enabled: { _ in true }, state: { .bool($0.remembersPositions) },
                run: { m, _ in m.setRemembersPositions(!m.remembersPositions) })
        case .resumeEnded:
            AppCommand({ tr("Resume") }, enabled: { $0.isConnected && $0.sessionEnd?.resumeAt != nil }, run: { m, _ in await m.resumeEnded() })
        case .stopOtherApp:
            AppCommand({ tr("Stop App") }, enabled: { $0.canStopOtherApp }, run: { m, _ in await m.stopOtherApp() })
        case .moveTo: AppCommand.moveTo  // CommandTable+Move.swift
        case .moveToDevice: AppCommand.moveToDevice  // CommandTable+Move.swift
        case .playOnGroup: AppCommand.playOnGroup  // CommandTable+Move.swift
        case .castScreen: AppCommand.castScreen  // CommandTable+Mirror.swift
        case .castScreenTo: AppCommand.castScreenTo  // CommandTable+Mirror.swift
        case .mirrorScreen: AppCommand.mirrorScreen  // CommandTable+Mirror.swift
        case .castDesktopAudio: AppCommand.castDesktopAudio  // CommandTable+Mirror.swift
        case .castDesktopAudioTo: AppCommand.castDesktopAudioTo  // CommandTable+Mirror.swift
        case .stopMirroring: AppCommand.stopMirroring  // CommandTable+Mirror.swift
        }
    }
}

extension AppModel {
    var controlsVolume: Bool { isConnected && deviceVolume != nil && !hasFixedVolume }
    var hasTracksToChoose: Bool { controlsMedia && !(textTracks.isEmpty && audioTracks.isEmpty) }
    var hasQueueItems: Bool { controlsMedia && queue.count > 0 }
}
