// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

// Mirroring runs inside CastDeck (ffmpeg is its child, the stream its sockets), so it stops
// when CastDeck quits. Ctrl+Q while mirroring asks first, as casting a file from this computer
// does: Keep Running in the Background (what closing the window does while mirroring) or Stop
// Casting, after which a cast that is also under way gets its own question.
extension CastDeckApplication {
    var isMirroring: Bool { model?.isMirroring ?? false }

    func askStopMirroring() {
        guard let model, let m = model.mirroring else { return }
        let name = isolateLTRIfAddress(m.deviceName)
        let dialog = MessageDialog(
            parent: window?.window.asWindow,
            heading: m.isScreen ? tr("Stop casting your screen to {0}?", name) : tr("Stop casting your desktop’s sound to {0}?", name),
            body: tr("Casting runs inside CastDeck, so it stops when CastDeck quits. Keep Running in the Background closes the window and keeps casting."),
            responses: [("background", tr("Keep Running in the Background")), ("stop", tr("Stop Casting"))],
            destructive: "stop", defaultResponse: "background")
        dialog.onResponse { [unowned self] response in
            switch response {
            case "stop":
                Task {
                    await model.perform(.stopMirroring)
                    self.requestQuit()
                }
            case "background":
                self.runInBackground()
            default:
                break
            }
        }
        dialog.present()
    }

    /// Closing the main window while mirroring (and casting no media) keeps CastDeck running in
    /// the background; true when it did.
    func keepMirroringInBackground() -> Bool {
        guard isMirroring, !isCasting else { return false }
        window?.window.asWindow.hide()
        enterBackground()
        tellRunningInBackground()
        return true
    }
}
