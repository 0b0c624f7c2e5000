// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// A message dialog that asks for one line of text (a device address, a web link) and checks
/// it as it is typed: what is wrong shows under the entry and the accepting response stays
/// off until the text is usable. The .ui file has "dialog", "entry" and "problem".
///
/// One dialog per .ui file lives as long as the app and is hidden, not destroyed, after each
/// answer: GTK 4.8 can crash when a window is finalized while assistive technology is
/// reading it, and a dialog is closed exactly when a screen reader is most likely to be there.
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
        dialog.asWindow.hideOnClose = true
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
    static func present(resource: String, accept: String, parent: Window?,
                        problem: @escaping @MainActor (String) -> String?,
                        onAccept: @escaping @MainActor (String) -> Void) {
        let d: EntryDialog
        if let existing = dialogs[resource] {
            d = existing
        } else {
            guard let made = try? EntryDialog(resource: resource, accept: accept) else { return }
            dialogs[resource] = made
            d = made
        }
        d.problem = problem
        d.onAccept = onAccept
        d.entry.text = ""
        d.check()
        d.dialog.asWindow.setTransientFor(parent)
        d.dialog.asWindow.present()
        d.entry.grabFocus()
    }
}
