// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// "Add Device by Address" (add-device-dialog.ui): host, host:port or [v6]:port, checked as it
/// is typed, then on the network before anything is saved. Add and Connect keeps the dialog
/// open while CastDeck looks for the device and closes it only once one answered (the device
/// list then connects). When none did, the dialog says why (a name that resolves to nothing,
/// an address where nothing answers, something that is not a Cast device) and offers Add
/// Anyway, which saves the address without connecting. Every message shows in the same space
/// under the entry, kept as tall as the tallest, so the dialog does not change size.
///
/// Like the app's other dialogs it is made for each request and destroyed when it closes (a
/// window kept hidden can crash GTK 4.8 under a screen reader). The last one made is kept
/// here with its builder, so that a second request can close one that is still open.
@MainActor
final class AddDeviceDialog {
    static let resource = CastDeckApplication.resourcePath + "/ui/add-device-dialog.ui"
    private static var current: AddDeviceDialog?

    let ui: Builder
    let dialog: MessageDialog
    let entry: Entry
    let messages: Stack
    let spinner: Spinner
    /// Adds the device if one answers at the text's address: nil when it did (the dialog
    /// closes), else the sentence that says why not.
    let add: @MainActor (String) async -> String?
    /// Saves the address although no device answered there.
    let addAnyway: @MainActor (String) -> Void
    private var lookup: Task<Void, Never>?
    /// A close was asked for and no response has come with it yet (see `closeRequested`).
    private var closeAsked = false
    private var closed = false

    private init(add: @escaping @MainActor (String) async -> String?, addAnyway: @escaping @MainActor (String) -> Void) throws {
        ui = try Builder(resource: Self.resource)
        dialog = ui.get("dialog")
        entry = ui.get("entry")
        messages = ui.get("messages")
        spinner = ui.get("checking-spinner")
        self.add = add
        self.addAnyway = addAnyway
        dialog.asWindow.hideOnClose = false
        Widget(unchecked: dialog.pointer).nameButtonsByLabel()
        entry.onChanged { [unowned self] in self.textChanged() }
        dialog.asWindow.onCloseRequest { [unowned self] in self.closeRequested() }
        dialog.onResponse { [unowned self] response in self.respond(response) }
        ui.get("fallback", as: Button.self).onClicked { [unowned self] in
            self.addAnyway(self.address)
            self.close()
        }
    }

    /// Shows a new dialog (closing one still open); the device list connects to what it adds.
    static func present(
        parent: Window?, add: @escaping @MainActor (String) async -> String?,
        addAnyway: @escaping @MainActor (String) -> Void
    ) {
        current?.close()
        guard let made = try? AddDeviceDialog(add: add, addAnyway: addAnyway) else { return }
        current = made
        made.textChanged()
        made.dialog.asWindow.setTransientFor(parent)
        made.dialog.asWindow.present()
        made.entry.grabFocus()
    }

    private var address: String { entry.text.trimmingCharacters(in: .whitespaces) }

    /// What is wrong with the text as it stands, if anything; a failed lookup's message goes
    /// once the text changes.
    private func textChanged() {
        let text = address
        let wrong = text.isEmpty ? nil : AppModel.addressProblem(text)
        ui.get("problem", as: Label.self).text = wrong ?? ""
        messages.visibleChildName = wrong == nil ? "none" : "problem"
        dialog.setResponseEnabled("add", !text.isEmpty && wrong == nil)
    }

    /// libadwaita closes a message dialog (close-request) just before it reports the response
    /// of a button, and without any response when Escape or the window manager closes it. The
    /// close is held back here so that Add and Connect can keep the dialog open while it looks
    /// for the device: the response that follows decides, and none by the next idle means the
    /// dialog was simply closed.
    private func closeRequested() -> Bool {
        if closed { return false }
        closeAsked = true
        GLibSource.idle { [weak self] in
            guard let self, self.closeAsked else { return }
            self.close()
        }
        return true
    }

    private func respond(_ response: String) {
        closeAsked = false
        guard response == "add" else {
            close()
            return
        }
        let text = address
        setLooking(true)
        lookup = Task { [weak self] in
            guard let self else { return }
            let failure = await self.add(text)
            guard !Task.isCancelled, !self.closed else { return }
            self.setLooking(false)
            guard let failure else {
                self.close()
                return
            }
            self.ui.get("failure", as: Label.self).text = failure
            self.messages.visibleChildName = "failed"
            self.entry.grabFocus()
        }
    }

    /// While CastDeck looks for the device the text cannot change and Add and Connect is off.
    private func setLooking(_ looking: Bool) {
        spinner.isSpinning = looking
        entry.isSensitive = !looking
        dialog.setResponseEnabled("add", !looking)
        if looking { messages.visibleChildName = "checking" }
    }

    /// Destroys the dialog; a lookup still running is cancelled (nothing is saved).
    private func close() {
        guard !closed else { return }
        closed = true
        closeAsked = false
        lookup?.cancel()
        dialog.asWindow.destroy()
    }
}
