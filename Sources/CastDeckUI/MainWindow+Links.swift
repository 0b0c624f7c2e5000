// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

extension MainWindow {
    /// Learn More (AppAction.openAdLink) opens the ad's link in the desktop's browser. AppModel
    /// hands over only http and https links (AdPlayback.webLink), so hostile metadata cannot
    /// make the desktop open a file, a scheme handler or a command.
    func installLinkOpener() {
        model.linkOpener = { [weak model] link in
            do {
                try launchDefaultHandler(for: link)
            } catch {
                model?.post(tr("No browser could open the ad's link."), detail: "\(link)\n\(error)")
            }
        }
    }
}
