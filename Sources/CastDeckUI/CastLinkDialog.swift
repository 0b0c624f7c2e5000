import AppModel
import GtkInterop

/// "Cast a Link" (cast-link-dialog.ui): an http(s) address of a video, song or picture. Cast
/// stays off, with the reason under the entry, until the text is a web link.
@MainActor
enum CastLinkDialog {
    static let resource = CastDeckApplication.resourcePath + "/ui/cast-link-dialog.ui"

    static func present(parent: Window?, onCast: @escaping @MainActor (String) -> Void) {
        guard let ui = try? Builder(resource: resource) else { return }
        let dialog: MessageDialog = ui.get("dialog")
        let entry: Entry = ui.get("link")
        let problem: Label = ui.get("problem")
        dialog.asWindow.setTransientFor(parent)
        dialog.setResponseEnabled("cast", false)
        entry.onChanged {
            let text = entry.text.trimmingCharacters(in: .whitespaces)
            let ok = AppModel.isWebLink(text)
            dialog.setResponseEnabled("cast", ok)
            problem.text = ok || text.isEmpty ? "" : tr("Enter an address that starts with http:// or https://.")
            problem.isVisible = !problem.text.isEmpty
        }
        dialog.onResponse { response in
            if response == "cast" { onCast(entry.text) }
        }
        dialog.asWindow.present()
    }
}
