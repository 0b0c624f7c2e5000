import AppModel
import GtkInterop

/// "Add Device by Address" (add-device-dialog.ui): an entry for host, host:port or [v6]:port.
@MainActor
enum AddDeviceDialog {
    static let resource = CastDeckApplication.resourcePath + "/ui/add-device-dialog.ui"

    /// Shows the dialog; `onAdd` gets the text when the user chooses "Add and Connect".
    static func present(parent: Window?, onAdd: @escaping @MainActor (String) -> Void) {
        guard let ui = try? Builder(resource: resource) else { return }
        let dialog: MessageDialog = ui.get("dialog")
        let entry: Entry = ui.get("address")
        let problem: Label = ui.get("problem")
        dialog.asWindow.setTransientFor(parent)
        // The address is checked as it is typed: what is wrong shows here, and Add stays off.
        dialog.setResponseEnabled("add", false)
        entry.onChanged {
            let text = entry.text.trimmingCharacters(in: .whitespaces)
            let message = text.isEmpty ? nil : AppModel.addressProblem(text)
            dialog.setResponseEnabled("add", !text.isEmpty && message == nil)
            problem.text = message ?? ""
            problem.isVisible = message != nil
        }
        dialog.onResponse { response in
            if response == "add" { onAdd(entry.text) }
        }
        dialog.asWindow.present()
    }
}
