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
/// `AppAction.Name.entry`, both in CommandTable.swift; the compiler asks for the second once
/// the first is there.
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
