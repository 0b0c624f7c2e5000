// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol

/// The one way in: every user command, whoever sends it (a button, a keyboard shortcut, a menu
/// item, MPRIS, the mini player, a test), is an `AppAction` handed to `AppModel.perform(_:)`.
/// What a command is — its GAction name, label, keys, parameter, when it is enabled, what it
/// does, the sentence for a refusal — is one `AppCommand` value in the command table
/// (CommandTable.swift); everything here reads that table, so nothing here names a command.
///
///     button / accelerator ─┐
///     menu item ────────────┼─► GAction "win.<name>" ─┐
///     MPRIS, mini player ───┴─────────────────────────┴─► AppModel.perform(AppAction)
///                                                           │ AppAction.Name.command (the table)
///                                                           ├─ isEnabled? no: .refused(why)
///                                                           └─ run ─► CastClient
///
/// Adding a command means: a case in `AppAction.Name` (its GAction name) and its entry in
/// `AppAction.Name.entry`; the compiler asks for the second once the first is there.
public struct AppAction: Hashable, Sendable {
    public let name: Name
    public let argument: Argument

    public init(_ name: Name, _ argument: Argument = .none) {
        self.name = name
        self.argument = argument
    }

    /// What a command carries besides its name.
    public enum Argument: Hashable, Sendable {
        case none
        case double(Double)
        case int(Int)
        /// Two queue item ids (a row dragged onto another).
        case pair(Int, Int)

        var double: Double? { if case .double(let d) = self { d } else { nil } }
        var int: Int? { if case .int(let i) = self { i } else { nil } }
        /// An id where a negative one means "none" (subtitles off, nothing burned in).
        var optionalID: Int? { int.flatMap { $0 < 0 ? nil : $0 } }
    }

    /// What a GAction's parameter is (GTK: the GVariant type "d" or "i").
    /// `pair`: two item ids, which only a gesture carries (a row dragged onto another):
    /// there is no GAction for it, MPRIS and the row menu use the single-id actions.
    public enum Parameter: Sendable { case none, double, int, pair }

    /// What `perform` did.
    public enum Outcome: Equatable, Sendable {
        case performed
        /// Not enabled now, so nothing was sent; the table's sentence for why, when a person
        /// would want to know (seeking during an ad, a skip that is not allowed yet).
        case refused(String?)
    }

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
    /// Whether the command can be sent now (the table's rule). The only place that reads
    /// `supportedMediaCommands` and the ad state for the user interface: buttons, shortcuts,
    /// MPRIS' Can* properties and the mini player all follow it.
    public func isEnabled(_ name: AppAction.Name) -> Bool { name.command.enabled(self) }

    /// Sends the command. A command that is not enabled is not sent (a stale button, a media key
    /// during an ad): the outcome says so, with the table's sentence for why where there is one.
    /// A failure is a notice that names the command it came from (`AppCommand.notSupported`).
    @discardableResult
    public func perform(_ action: AppAction) async -> AppAction.Outcome {
        let command = action.name.command
        guard command.enabled(self) else { return .refused(command.refusal?(self)) }
        await AppCommand.$performing.withValue(action.name) { await command.run(self, action.argument) }
        return .performed
    }

    /// Sends a command that carries no value (`perform(.togglePlayPause)`).
    @discardableResult
    public func perform(_ name: AppAction.Name) async -> AppAction.Outcome {
        guard let action = name.action() else { return .refused(nil) }
        return await perform(action)
    }

    /// The state a stateful control shows for an action (a toggle group or a check button):
    /// the selected rate segment, whether muted, the active track (-1: none).
    public func state(of name: AppAction.Name) -> AppActionState? { name.command.state?(self) }
}

/// The state of a stateful action (see `AppModel.state(of:)`).
public enum AppActionState: Equatable, Sendable {
    case bool(Bool)
    case int(Int)
    case double(Double)
}
