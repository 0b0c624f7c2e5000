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
    case toggleMute
    /// Stream volume, 0…1.
    case setVolume(Double)
    /// A text track id, or nil for subtitles off.
    case selectTextTrack(Int?)
    case selectAudioTrack(Int)
    case applyStyle
    case useStyleAsDefault
    case castSample
    /// Ask which files to cast (the window's file chooser; see `AppModel.filePicker`).
    case chooseFiles
    case disconnect
    /// The queue's next and previous item (MPRIS Next/Previous, media keys).
    case next
    case previous

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
        case chooseFiles = "cast-file"
        case disconnect
        case next = "queue-next"
        case previous = "queue-prev"

        /// What the action's parameter is (GTK: the GVariant type "d" or "i").
        public enum Parameter: Sendable { case none, double, int }

        public var parameter: Parameter {
            switch self {
            case .seekTo, .setRate, .setVolume: .double
            case .selectTextTrack, .selectAudioTrack: .int
            default: .none
            }
        }

        /// Keyboard shortcuts, in GTK accelerator syntax.
        public var accelerators: [String] {
            switch self {
            case .togglePlayPause: ["space"]
            case .seekBackward: ["Left"]
            case .seekForward: ["Right"]
            case .chooseFiles: ["<Control>o"]
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
            case .stopCasting: tr("Stop casting")
            case .skipAd: tr("Skip ad")
            case .setRate: tr("Playback speed")
            case .toggleMute: tr("Mute")
            case .setVolume: tr("Volume")
            case .selectTextTrack: tr("Subtitles")
            case .selectAudioTrack: tr("Audio")
            case .applyStyle: tr("Apply")
            case .useStyleAsDefault: tr("Use as default")
            case .castSample: tr("Cast sample")
            case .chooseFiles: tr("Cast a file")
            case .disconnect: tr("Disconnect")
            case .next: tr("Next")
            case .previous: tr("Previous")
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
            case .chooseFiles: .chooseFiles
            case .disconnect: .disconnect
            case .next: .next
            case .previous: .previous
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
        case .chooseFiles: .chooseFiles
        case .disconnect: .disconnect
        case .next: .next
        case .previous: .previous
        }
    }
}

extension AppModel {
    /// Whether the command can be sent now. The only place that reads `supportedMediaCommands`
    /// and the ad state for the user interface: buttons, shortcuts, MPRIS' Can* properties and
    /// the mini player all follow it.
    public func isEnabled(_ name: AppAction.Name) -> Bool {
        let media = hasMedia
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
        case .toggleMute:
            return media && supports(.streamMute)
        case .setVolume:
            return media && supports(.streamVolume)
        case .selectTextTrack, .selectAudioTrack:
            return media && !(textTracks.isEmpty && audioTracks.isEmpty)
        case .applyStyle:
            return media && (supports(.editTracks) || !textTracks.isEmpty)
        case .useStyleAsDefault:
            return true
        case .castSample:
            return isConnected && sampleMedia != nil
        case .chooseFiles:
            // Without a device the files wait until one is chosen (castFiles).
            return filePicker != nil
        case .disconnect:
            return isConnected
        case .next:
            return media && !isPlayingAd && hasNextItem
        case .previous:
            return media && !isPlayingAd && hasPreviousItem
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
        case .chooseFiles: filePicker?()
        case .disconnect: await disconnect()
        case .next: await queueNext()
        case .previous: await queuePrevious()
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
