// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// GTK 4.8 names a button that shows a text label by the label property and then the text it
/// shows, so a screen reader says "_Cancel Cancel" or "Details Details" (the buttons libadwaita
/// makes for message-dialog responses and toasts have no name of their own). These give such
/// buttons their label as shown, without the mnemonic mark, as their one accessible name.
@MainActor
extension Widget {
    /// Names every labelled button in this widget's subtree by its shown label.
    public func nameButtonsByLabel() {
        for child in children {
            if child.isA("GtkButton"), let raw = gtk_button_get_label(cast(child.pointer)) {
                let label = String(cString: raw)
                let shown = gtk_button_get_use_underline(cast(child.pointer)) != 0 ? withoutMnemonic(label) : label
                if !shown.isEmpty { child.setSoleAccessibleName(shown) }
            }
            child.nameButtonsByLabel()
        }
    }
}

@MainActor
extension WidgetWrapper {
    /// `name` as the widget's only accessible name. GTK 4.8 joins a "labelled by" relation (a
    /// button's text child, an AdwButtonContent) to the label property, so a button named
    /// in its .ui file was read "Cast a Link Cast a Link…": without the relation it is said once.
    public func setSoleAccessibleName(_ name: String) {
        gtk_accessible_reset_relation(OpaquePointer(pointer), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
        setAccessibleName(name)
    }
}

/// "_Cancel" → "Cancel"; "__" is a literal underscore.
public func withoutMnemonic(_ label: String) -> String {
    var out = ""
    var escaped = false
    for c in label {
        if c == "_" && !escaped {
            escaped = true
            continue
        }
        out.append(c)
        escaped = false
    }
    return out
}

@MainActor
extension ToastOverlay {
    /// Names the buttons of the toasts on screen (not the overlay's content).
    func nameToastButtons() {
        let content = adw_toast_overlay_get_child(cast(pointer))
        for child in Widget(unchecked: pointer).children where child.pointer != content {
            child.nameButtonsByLabel()
        }
    }
}
