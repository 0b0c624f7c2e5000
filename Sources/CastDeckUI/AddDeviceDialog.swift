// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// "Add Device by Address" (add-device-dialog.ui): host, host:port or [v6]:port, checked as
/// it is typed.
@MainActor
enum AddDeviceDialog {
    static let resource = CastDeckApplication.resourcePath + "/ui/add-device-dialog.ui"

    /// Shows the dialog; `onAdd` gets the text when the user chooses "Add and Connect".
    static func present(parent: Window?, onAdd: @escaping @MainActor (String) -> Void) {
        EntryDialog.present(resource: resource, accept: "add", parent: parent,
                            problem: AppModel.addressProblem, onAccept: onAdd)
    }
}
