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
        dialog.asWindow.setTransientFor(parent)
        dialog.onResponse { response in
            if response == "add" { onAdd(entry.text) }
        }
        dialog.asWindow.present()
    }
}
