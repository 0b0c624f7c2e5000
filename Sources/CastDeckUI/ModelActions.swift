// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The command table (AppModel's CommandTable.swift) as GActions: one `SimpleAction` per entry, so a
/// button bound with `action-name="win.toggle-play"` and the Space key run the same code and
/// share one enabled state. Enabled states and toggle states come from `AppModel.isEnabled`
/// and `AppModel.state(of:)`; `refresh()` copies them after every model change.
@MainActor
final class ModelActions {
    let model: AppModel
    private(set) var actions: [(AppAction.Name, SimpleAction)] = []

    init(model: AppModel, names: [AppAction.Name] = AppAction.Name.allCases) {
        self.model = model
        for name in names where name.parameter != .pair {
            let action = SimpleAction(
                name: name.rawValue, parameter: Self.parameterType(name.parameter),
                state: model.state(of: name).map(Self.value)
            ) { [unowned model] parameter in
                var double: Double?, int: Int?
                switch parameter {
                case .double(let d)?: double = d
                case .int(let i)?: int = i
                default: break
                }
                guard let command = name.action(double: double, int: int) else { return }
                Task { await model.perform(command) }
            }
            actions.append((name, action))
        }
        refresh()
    }

    /// Copies enabled and toggle states from the model (reads, so `observe` tracks them).
    func refresh() {
        for (name, action) in actions {
            action.isEnabled = model.isEnabled(name)
            if let state = model.state(of: name) { action.setState(Self.value(state)) }
        }
    }

    /// Adds the actions to the window as "win.<name>".
    func install(on window: Window) {
        for (_, action) in actions { window.add(action) }
    }

    /// Sets the table's keyboard shortcuts for "win.<name>".
    func installAccelerators(_ app: Application) {
        for (name, _) in actions where !name.accelerators.isEmpty {
            app.setAccels("win.\(name.rawValue)", name.accelerators)
        }
    }

    private static func parameterType(_ p: AppAction.Parameter) -> SimpleAction.ParameterType {
        switch p {
        case .none: .none
        case .double: .double
        case .int, .pair: .int
        }
    }

    private static func value(_ s: AppActionState) -> SimpleAction.Value {
        switch s {
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        }
    }
}

extension ModelActions {
    /// Makes the actions available in `window` as "win.<name>" (windows without an action map).
    func install(into window: some WidgetWrapper) {
        let group = ActionGroup()
        for (_, action) in actions { group.add(action) }
        group.insert(into: window, prefix: "win")
    }
}
