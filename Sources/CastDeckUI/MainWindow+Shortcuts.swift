// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import GtkInterop

/// The keyboard shortcuts window (Ctrl+?, and Keyboard Shortcuts in the main menu).
///
/// It is made from `ui/shortcuts.ui` each time it is asked for and destroyed when it closes.
/// GTK's help overlay (gtk_application_window_set_help_overlay) would instead be built up
/// front and kept hidden for the whole run, and a window that exists without being shown can
/// crash GTK 4.8 under a screen reader (Window.destroyWhenClosed says how). Loading it from
/// `gtk/help-overlay.ui` would also cost the first frame 3–5 ms (docs/performance.md).
@MainActor
extension MainWindow {
    /// The builder of the last shortcuts window made; it holds a reference to that window, so
    /// asking whether it is still shown stays safe after GTK has destroyed it.
    private static var shortcutsUI: Builder?

    /// Adds win.show-help-overlay (the name the main menu and GTK's convention use) and Ctrl+?.
    func installShortcutsWindow(_ app: Application) {
        window.asWindow.add(SimpleAction(name: "show-help-overlay") { [unowned self] _ in self.showShortcuts() })
        app.setAccels("win.show-help-overlay", ["<Control>question"])
    }

    /// Shows the shortcuts window, or brings the open one to the front. A definition that does
    /// not load is reported, and nothing opens.
    func showShortcuts() {
        if let open = Self.shortcutsUI?.get("help_overlay", as: Window.self), open.isVisible {
            open.present()
            return
        }
        do {
            let ui = try Builder(resource: Self.shortcutsResource)
            guard ui.has("help_overlay") else {
                printError("castdeck: \(Self.shortcutsResource) has no help_overlay")
                return
            }
            let shortcuts = ui.get("help_overlay", as: Window.self)
            shortcuts.destroyWhenClosed()
            shortcuts.setTransientFor(window.asWindow)
            Self.shortcutsUI = ui
            shortcuts.present()
        } catch {
            printError("castdeck: cannot load the shortcuts window: \(error)")
        }
    }
}
