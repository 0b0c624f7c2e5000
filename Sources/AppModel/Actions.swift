// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol

/// The one way in: every user command, whoever sends it (a button, a keyboard shortcut, a menu
/// item, and later MPRIS and the mini player), is an `AppAction` handed to `AppModel.perform(_:)`.
/// Whether a command can be sent now is decided once, in `AppModel.isEnabled(_:)`, from the
/// receiver's `supportedMediaCommands` and the ad state; widgets never check those themselves.
///
///     button / accelerator ─┐
///     menu item ────────────┼─► GAction "win.<name>" ─┐
///     MPRIS, mini player ───┴─────────────────────────┴─► AppModel.perform(AppAction) ─► CastClient
///
/// Adding a media command means: a case here (with its `Name`), a line in `isEnabled` and in
/// `perform`, and the widget that offers it (bound with `action-name`).
public enum AppAction: Hashable, Sendable {
    case togglePlayPause
    case play
    case pause
    /// Relative seek in seconds (negative: backward).
    case seekBy(Double)
    /// Absolute seek in seconds of content time.
    case seekTo(Double)
    case stopCasting
    case skipAd
    /// Playback speed; the receiver is asked for exactly this rate.
    case setRate(Double)
    /// The device's mute (as Google's Cast dialog: the device, not the stream).
    case toggleMute
    /// Device volume, 0…1.
    case setVolume(Double)
    /// A text track id, or nil for subtitles off.
    case selectTextTrack(Int?)
    case selectAudioTrack(Int)
    case applyStyle
    case useStyleAsDefault
    case castSample
    /// Cast the playing local file again with this embedded subtitle drawn in (nil: none).
    case burnSubtitles(Int?)
    /// Load the media that finished or was stopped again, from the start.
    case playAgain
    /// Ask for a link to cast (the window's dialog; see `AppModel.linkPrompt`).
    case chooseLink
    /// Ask which files to cast (the window's file chooser; see `AppModel.filePicker`).
    case chooseFiles
    case disconnect
    // Queue (AppModel+Queue.swift); item commands take the queue item id.
    case queueNext
    case queuePrev
    case queueJump(Int)
    case queueRemove(Int)
    case queueMoveUp(Int)
    /// Move a queue item to where another one is (a row dragged onto another row).
    case queueMove(Int, onto: Int)
    case queueMoveDown(Int)
    case queuePlayNext(Int)
    case cycleRepeat
    case toggleShuffle
    /// Open the preferences (the window's; see `AppModel.preferencesPrompt`).
    case showPreferences
    /// Remember where playback stopped, or not (AppModel+Resume.swift).
    case toggleRememberPositions

    /// The action's stable name: the GAction name in the window ("win.<raw value>"), and what
    /// MPRIS or tests use to look a command up. One name per case.
    public enum Name: String, CaseIterable, Sendable {
        case togglePlayPause = "toggle-play"
        case play
        case pause
        case seekBackward = "seek-back"
        case seekForward = "seek-forward"
        case seekBackward30 = "seek-back-30"
        case seekForward30 = "seek-forward-30"
        case seekTo = "seek-to"
        case stopCasting = "stop-casting"
        case skipAd = "skip-ad"
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
        case toggleShuffle = "queue-shuffle"
        case showPreferences = "preferences"
        case toggleRememberPositions = "remember-positions"

        /// What the action's parameter is (GTK: the GVariant type "d" or "i").
        /// `pair`: two item ids, which only a gesture carries (a row dragged onto another):
        /// there is no GAction for it, MPRIS and the row menu use the single-id actions.
        public enum Parameter: Sendable { case none, double, int, pair }

        public var parameter: Parameter {
            switch self {
            case .seekTo, .setRate, .setVolume: .double
            case .queueMove: .pair
            case .selectTextTrack, .selectAudioTrack, .burnSubtitles: .int
            case .queueJump, .queueRemove, .queueMoveUp, .queueMoveDown, .queuePlayNext: .int
            default: .none
            }
        }

        /// Keyboard shortcuts that work wherever the focus is, in GTK accelerator syntax.
        public var accelerators: [String] {
            switch self {
            case .chooseFiles: ["<Control>o"]
            case .chooseLink: ["<Control>l"]
            case .showPreferences: ["<Control>comma"]
            default: []
            }
        }

        /// Keys that are shortcuts only when the focused widget has no use for them (Space on a
        /// focused button presses it; arrows on a focused slider move it). The window checks
        /// the focus before it runs these (MainWindow.handleKey).
        public var yieldingKeys: [String] {
            switch self {
            case .togglePlayPause: ["space"]
            case .seekBackward: ["Left"]
            case .seekForward: ["Right"]
            default: []
            }
        }

        /// What a menu item or the shortcuts window calls it (translated).
        public var label: String {
            switch self {
            case .togglePlayPause: tr("Play or pause")
            case .play: tr("Play")
            case .pause: tr("Pause")
            case .seekBackward: tr("Seek backward 10 seconds")
            case .seekForward: tr("Seek forward 10 seconds")
            case .seekBackward30: tr("Seek backward 30 seconds")
            case .seekForward30: tr("Seek forward 30 seconds")
            case .seekTo: tr("Position")
            case .stopCasting: tr("Stop Casting")
            case .skipAd: tr("Skip Ad")
            case .setRate: tr("Playback speed")
            case .toggleMute: tr("Mute")
            case .setVolume: tr("Volume")
            case .selectTextTrack: tr("Subtitles")
            case .selectAudioTrack: tr("Audio")
            case .applyStyle: tr("Apply")
            case .useStyleAsDefault: tr("Use as Default")
            case .castSample: tr("Cast Sample")
            case .burnSubtitles: tr("Burn In Subtitles")
            case .playAgain: tr("Play Again")
            case .chooseLink: tr("Cast a Link…")
            case .chooseFiles: tr("Cast a File…")
            case .disconnect: tr("Disconnect")
            case .queueNext: tr("Next")
            case .queuePrev: tr("Previous")
            case .queueJump: tr("Play")
            case .queueRemove: tr("Remove")
            case .queueMoveUp: tr("Move Up")
            case .queueMove: tr("Move")
            case .queueMoveDown: tr("Move Down")
            case .queuePlayNext: tr("Play Next")
            case .cycleRepeat: tr("Repeat")
            case .toggleShuffle: tr("Shuffle")
            case .showPreferences: tr("Preferences")
            case .toggleRememberPositions: tr("Remember where playback stopped")
            }
        }

        /// The action for this name with `value` as its parameter (nil when the parameter is
        /// missing or of the wrong kind). For text tracks a negative id means "off".
        public func action(double: Double? = nil, int: Int? = nil) -> AppAction? {
            switch self {
            case .togglePlayPause: .togglePlayPause
            case .play: .play
            case .pause: .pause
            case .seekBackward: .seekBy(-10)
            case .seekForward: .seekBy(10)
            case .seekBackward30: .seekBy(-30)
            case .seekForward30: .seekBy(30)
            case .seekTo: double.map(AppAction.seekTo)
            case .stopCasting: .stopCasting
            case .skipAd: .skipAd
            case .setRate: double.map(AppAction.setRate)
            case .toggleMute: .toggleMute
            case .setVolume: double.map(AppAction.setVolume)
            case .selectTextTrack: int.map { AppAction.selectTextTrack($0 < 0 ? nil : $0) }
            case .selectAudioTrack: int.map(AppAction.selectAudioTrack)
            case .applyStyle: .applyStyle
            case .useStyleAsDefault: .useStyleAsDefault
            case .castSample: .castSample
            case .burnSubtitles: int.map { AppAction.burnSubtitles($0 < 0 ? nil : $0) }
            case .playAgain: .playAgain
            case .chooseLink: .chooseLink
            case .chooseFiles: .chooseFiles
            case .disconnect: .disconnect
            case .queueNext: .queueNext
            case .queuePrev: .queuePrev
            case .queueJump: int.map(AppAction.queueJump)
            case .queueRemove: int.map(AppAction.queueRemove)
            case .queueMoveUp: int.map(AppAction.queueMoveUp)
            // Two items: only a drag makes it (no button or key carries both ids).
            case .queueMove: nil
            case .queueMoveDown: int.map(AppAction.queueMoveDown)
            case .queuePlayNext: int.map(AppAction.queuePlayNext)
            case .cycleRepeat: .cycleRepeat
            case .toggleShuffle: .toggleShuffle
            case .showPreferences: .showPreferences
            case .toggleRememberPositions: .toggleRememberPositions
            }
        }
    }

    public var name: Name {
        switch self {
        case .togglePlayPause: .togglePlayPause
        case .play: .play
        case .pause: .pause
        case .seekBy(let d): d < 0 ? (d <= -30 ? .seekBackward30 : .seekBackward) : (d >= 30 ? .seekForward30 : .seekForward)
        case .seekTo: .seekTo
        case .stopCasting: .stopCasting
        case .skipAd: .skipAd
        case .setRate: .setRate
        case .toggleMute: .toggleMute
        case .setVolume: .setVolume
        case .selectTextTrack: .selectTextTrack
        case .selectAudioTrack: .selectAudioTrack
        case .applyStyle: .applyStyle
        case .useStyleAsDefault: .useStyleAsDefault
        case .castSample: .castSample
        case .burnSubtitles: .burnSubtitles
        case .playAgain: .playAgain
        case .chooseLink: .chooseLink
        case .chooseFiles: .chooseFiles
        case .disconnect: .disconnect
        case .queueNext: .queueNext
        case .queuePrev: .queuePrev
        case .queueJump: .queueJump
        case .queueRemove: .queueRemove
        case .queueMoveUp: .queueMoveUp
        case .queueMove: .queueMove
        case .queueMoveDown: .queueMoveDown
        case .queuePlayNext: .queuePlayNext
        case .cycleRepeat: .cycleRepeat
        case .toggleShuffle: .toggleShuffle
        case .showPreferences: .showPreferences
        case .toggleRememberPositions: .toggleRememberPositions
        }
    }
}

extension AppModel {
    /// Whether the command can be sent now. The only place that reads `supportedMediaCommands`
    /// and the ad state for the user interface: buttons, shortcuts, MPRIS' Can* properties and
    /// the mini player all follow it.
    public func isEnabled(_ name: AppAction.Name) -> Bool {
        // While reconnecting nothing reaches the device: only Disconnect works.
        let media = hasMedia && isConnected
        switch name {
        case .togglePlayPause:
            return media && (supports(.pause) || !isPlaying)
        case .play:
            return media && !isPlaying
        case .pause:
            return media && isPlaying && supports(.pause)
        case .seekBackward, .seekForward, .seekBackward30, .seekForward30:
            return media && supports(.seek) && !isPlayingAd
        case .seekTo:
            return media && supports(.seek) && !isPlayingAd && (duration ?? 0) > 0
        case .stopCasting:
            return isConnected && media
        case .skipAd:
            return adState?.isSkippable == true
        case .setRate:
            return media && supports(.playbackRate)
        case .toggleMute, .setVolume:
            return isConnected && deviceVolume != nil && !hasFixedVolume
        case .selectTextTrack, .selectAudioTrack:
            return media && !(textTracks.isEmpty && audioTracks.isEmpty)
        case .applyStyle:
            // Subtitles are drawn over a moving picture: music and photos have none to style.
            return media && mediaKind == .video && (supports(.editTracks) || !textTracks.isEmpty)
        case .useStyleAsDefault:
            return true
        case .castSample:
            return isConnected && sampleMedia != nil
        case .burnSubtitles:
            return media && !burnableSubtitles.isEmpty
        case .playAgain:
            return isConnected && lastLoad != nil && [.finished, .stopped, .failed].contains(phase)
        case .chooseLink:
            return linkPrompt != nil
        case .chooseFiles:
            // Without a device the files wait until one is chosen (castFiles).
            return filePicker != nil
        case .disconnect:
            return isConnected || isReconnecting
        case .queueNext:
            guard hasQueue, isConnected, supports(.queueNext), let i = queue.currentIndex else { return false }
            return i + 1 < queue.count || queue.repeatMode == .all || queue.repeatMode == .allAndShuffle
        case .queuePrev:
            guard hasQueue, isConnected, supports(.queuePrev), let i = queue.currentIndex else { return false }
            return i > 0 || queue.repeatMode == .all || queue.repeatMode == .allAndShuffle
        case .queueJump, .queueRemove, .queueMoveUp, .queueMoveDown, .queuePlayNext, .queueMove:
            return media && queue.count > 0
        case .cycleRepeat:
            return media && queue.count > 0 && supports(.queueRepeat)
        case .toggleShuffle:
            return hasQueue && isConnected && supports(.queueShuffle)
        case .showPreferences:
            return preferencesPrompt != nil
        case .toggleRememberPositions:
            return true
        }
    }

    /// Sends the command. A command that is not enabled is not sent (a stale button, a media key
    /// during an ad); the model's own checks still say why where a person would want to know.
    public func perform(_ action: AppAction) async {
        guard isEnabled(action.name) else { return }
        switch action {
        case .togglePlayPause: await togglePlayPause()
        case .play: if !isPlaying { await togglePlayPause() }
        case .pause: if isPlaying { await togglePlayPause() }
        case .seekBy(let delta): await seek(by: delta)
        case .seekTo(let seconds): await seek(to: seconds)
        case .stopCasting: await stopCasting()
        case .skipAd: await skipAd()
        case .setRate(let rate): await setRate(rate)
        case .toggleMute: await toggleMute()
        case .setVolume(let level): await setVolume(level)
        case .selectTextTrack(let id): await selectTextTrack(id)
        case .selectAudioTrack(let id): await selectAudioTrack(id)
        case .applyStyle: await applyStyle()
        case .useStyleAsDefault: useStyleAsDefault()
        case .castSample: await castSample()
        case .burnSubtitles(let n): await burnSubtitles(n)
        case .playAgain: await playAgain()
        case .chooseLink: linkPrompt?()
        case .chooseFiles: filePicker?()
        case .disconnect: await disconnect()
        case .queueNext: await queueCommand { m throws(CastClientError) in try await m.queueNext() }
        case .queuePrev: await queueCommand { m throws(CastClientError) in try await m.queuePrev() }
        case .queueJump(let id): await queueCommand { m throws(CastClientError) in try await m.queueJump(to: id) }
        case .queueRemove(let id): await queueCommand { m throws(CastClientError) in try await m.queueRemove([id]) }
        case .queueMoveUp(let id): await moveQueueItem(id, by: -1)
        case .queueMove(let id, let target): await moveQueueItem(id, onto: target)
        case .queueMoveDown(let id): await moveQueueItem(id, by: 1)
        case .queuePlayNext(let id): await playQueueItemNext(id)
        case .cycleRepeat: await cycleRepeat()
        case .toggleShuffle: await toggleShuffle()
        case .showPreferences: preferencesPrompt?()
        case .toggleRememberPositions: setRemembersPositions(!remembersPositions)
        }
    }

    /// The state a stateful control shows for an action (a toggle group or a check button):
    /// the selected rate segment, whether muted, the active track (-1: none).
    public func state(of name: AppAction.Name) -> AppActionState? {
        switch name {
        case .setRate: .double(selectedRate)
        case .toggleMute: .bool(isMuted)
        case .selectTextTrack: .int(activeTextTrackID ?? -1)
        case .selectAudioTrack: .int(activeAudioTrackID ?? audioTracks.first?.trackId ?? -1)
        case .burnSubtitles: .int(burnableSubtitles.first { $0.isBurned }?.number ?? -1)
        case .toggleShuffle: .bool(queue.repeatMode == .allAndShuffle)
        case .toggleRememberPositions: .bool(remembersPositions)
        default: nil
        }
    }
}

/// The state of a stateful action (see `AppModel.state(of:)`).
public enum AppActionState: Equatable, Sendable {
    case bool(Bool)
    case int(Int)
    case double(Double)
}
