// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

// Screen mirroring in the main window (AppModel+Mirror.swift): the banner goes under the
// header bar, and Cast Screen… (main menu, a device row's menu) opens MirrorDialog. The
// main menu's Cast Desktop Audio needs no dialog: it goes to the connected device.
extension MainWindow {
    func installMirroring(root: Box, header: Widget) {
        root.insert(mirrorBanner.revealer, after: header)
        model.mirrorPrompt = { [unowned self] deviceID in
            MirrorDialog.present(parent: self.window.asWindow, model: self.model, deviceID: deviceID)
        }
    }
}
