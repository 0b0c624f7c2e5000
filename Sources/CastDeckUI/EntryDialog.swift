// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// A message dialog that asks for one line of text (a device address, a web link) and checks
/// it as it is typed: what is wrong shows under the entry and the accepting response stays
/// off until the text is usable. The .ui file has "dialog", "entry" and "problem".
///
/// Each time it is asked for the dialog is made afresh, and it is destroyed once answered: a
/// window kept hidden can crash GTK 4.8 under a screen reader (Window.destroyWhenClosed).
/// The last one made per .ui file is kept here with its builder, which holds a reference to
/// the dialog, so that a second request can close a dialog that is still open.
@MainActor
final class EntryDialog {
    private static var dialogs: [String: EntryDialog] = [:]

    let ui: Builder
    let dialog: MessageDialog
    let entry: Entry
    let message: Label
    let accept: String
    var problem: @MainActor (String) -> String? = { _ in nil }
    var onAccept: @MainActor (String) -> Void = { _ in }

    private init(resource: String, accept: String) throws {
        ui = try Builder(resource: resource)
        dialog = ui.get("dialog")
        entry = ui.get("entry")
        message = ui.get("problem")
        self.accept = accept
        dialog.asWindow.destroyWhenClosed()
        Widget(unchecked: dialog.pointer).nameButtonsByLabel()
        entry.onChanged { [unowned self] in self.check() }
        dialog.onResponse { [unowned self] response in
            if response == self.accept { self.onAccept(self.entry.text) }
        }
    }

    private func check() {
        let text = entry.text.trimmingCharacters(in: .whitespaces)
        let wrong = text.isEmpty ? nil : problem(text)
        dialog.setResponseEnabled(accept, !text.isEmpty && wrong == nil)
        message.text = wrong ?? ""
        message.isVisible = wrong != nil
    }

    /// - Parameters:
    ///   - accept: the response id that hands the text over ("add", "cast").
    ///   - problem: nil when the text can be used, else the sentence to show.
    static func present(
        resource: String, accept: String, parent: Window?,
        problem: @escaping @MainActor (String) -> String?,
        onAccept: @escaping @MainActor (String) -> Void
    ) {
        // Destroying a dialog that was already destroyed does nothing.
        dialogs[resource]?.dialog.asWindow.destroy()
        dialogs[resource] = nil
        guard let d = try? EntryDialog(resource: resource, accept: accept) else { return }
        dialogs[resource] = d
        d.problem = problem
        d.onAccept = onAccept
        d.entry.text = ""
        d.check()
        d.dialog.asWindow.setTransientFor(parent)
        d.dialog.asWindow.present()
        d.entry.grabFocus()
    }
}
