// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// "Cast a Link" (cast-link-dialog.ui): an http(s) address of a video, song or picture.
@MainActor
enum CastLinkDialog {
    static let resource = CastDeckApplication.resourcePath + "/ui/cast-link-dialog.ui"

    static func present(parent: Window?, onCast: @escaping @MainActor (String) -> Void) {
        EntryDialog.present(
            resource: resource, accept: "cast", parent: parent,
            problem: { AppModel.isWebLink($0) ? nil : tr("Enter an address that starts with http:// or https://.") },
            onAccept: onCast)
    }
}
