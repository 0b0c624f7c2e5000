// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// Casting while something plays (cast-choice-dialog.ui): "Play Now" replaces it with a new
/// queue, "Play Next" inserts after the current item, "Add to Queue" appends.
@MainActor
enum CastChoiceDialog {
    static let resource = CastDeckApplication.resourcePath + "/ui/cast-choice-dialog.ui"

    static func present(parent: Window?, files: [String], onChoice: @escaping @MainActor (AppModel.QueuePlacement) -> Void) {
        guard let ui = try? Builder(resource: resource) else { return }
        let dialog: MessageDialog = ui.get("dialog")
        Widget(unchecked: dialog.pointer).nameButtonsByLabel()
        let name =
            files.count == 1 ? (files[0].split(separator: "/").last.map(String.init) ?? files[0]) : ntr("{0} item", "{0} items", files.count, files.count)
        dialog.setBody(tr("Play {0} now, after what plays, or at the end of the queue?", name))
        dialog.asWindow.setTransientFor(parent)
        dialog.onResponse { response in
            if let placement = AppModel.QueuePlacement(rawValue: response) { onChoice(placement) }
        }
        dialog.asWindow.present()
    }
}
