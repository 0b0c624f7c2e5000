import AppModel
import GtkInterop

/// A message dialog that asks for one line of text (a device address, a web link) and checks
/// it as it is typed: what is wrong shows under the entry and the accepting response stays
/// off until the text is usable. The .ui file has "dialog", "entry" and "problem".
@MainActor
enum EntryDialog {
    /// - Parameters:
    ///   - accept: the response id that hands the text over ("add", "cast").
    ///   - problem: nil when the text can be used, else the sentence to show.
    static func present(resource: String, accept: String, parent: Window?,
                        problem: @escaping @MainActor (String) -> String?,
                        onAccept: @escaping @MainActor (String) -> Void) {
        guard let ui = try? Builder(resource: resource) else { return }
        let dialog: MessageDialog = ui.get("dialog")
        let entry: Entry = ui.get("entry")
        let message: Label = ui.get("problem")
        dialog.asWindow.setTransientFor(parent)
        dialog.setResponseEnabled(accept, false)
        entry.onChanged {
            let text = entry.text.trimmingCharacters(in: .whitespaces)
            let wrong = text.isEmpty ? nil : problem(text)
            dialog.setResponseEnabled(accept, !text.isEmpty && wrong == nil)
            message.text = wrong ?? ""
            message.isVisible = wrong != nil
        }
        dialog.onResponse { response in
            if response == accept { onAccept(entry.text) }
        }
        dialog.asWindow.present()
    }
}
