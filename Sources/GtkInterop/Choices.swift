// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

// Rows to choose one of many (the tracks popover's subtitles, audio tracks, burn-in), and spin
// buttons that show and read numbers in the UI language's digits.

@MainActor
extension ToggleButton {
    /// One choice of a one-of-many list: a flat toggle button whose content is a check mark and
    /// `label`. The mark shows on the chosen row only (instead of the pressed button's grey
    /// fill), and assistive technology sees a radio button that is checked or not. Bound to a
    /// stateful action (`setAction`), GTK keeps exactly the row of the action's state chosen.
    /// A toggle button rather than a GtkCheckButton in radio mode: GTK 4.8 gives check buttons
    /// no accessible action, so screen readers could read but not choose them.
    /// A `detail` shows dim at the row's end, left to right (the Chapters menu: where the
    /// chapter starts), and is read after the label.
    public static func choice(_ label: String, detail: String? = nil, maxWidthChars: Int32) -> ToggleButton {
        let button = ToggleButton(unchecked: cgtk_radio_toggle_button_new())
        button.addCSSClass("flat")
        button.addCSSClass("choice")
        let row = Box(vertical: false, spacing: 6)
        let mark = Image(unchecked: gtk_image_new_from_icon_name("object-select-symbolic"))
        let text = Label(label)
        gtk_label_set_ellipsize(cast(text.pointer), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(cast(text.pointer), maxWidthChars)
        row.append(mark, text)
        if let detail {
            text.hexpand = true
            let end = Label(detail, classes: ["dim-label", "numeric"])
            end.keepLeftToRight()
            row.append(end)
        }
        gtk_button_set_child(cast(button.pointer), row.pointer)
        // The content is a box, so the button takes no name from a label by itself.
        button.setAccessibleName(detail.map { label + ", " + $0 } ?? label)
        let show: @MainActor () -> Void = {
            let chosen = button.isActive
            gtk_widget_set_opacity(mark.pointer, chosen ? 1 : 0)
            cgtk_accessible_set_checked(button.pointer, chosen ? 1 : 0)
        }
        button.onToggled(show)
        show()
        return button
    }
}

private final class SpinFormat {
    let format: @MainActor (Double) -> String
    let parse: @MainActor (String) -> Double?
    init(format: @escaping @MainActor (Double) -> String, parse: @escaping @MainActor (String) -> Double?) {
        self.format = format
        self.parse = parse
    }
}

@MainActor
extension SpinButton {
    /// Shows the value as `format` writes it (GtkSpinButton::output: "۱٫۵" rather than "1.5"),
    /// and reads typed text back with `parse` (::input), so the digits shown are also the digits
    /// the button understands. Text `parse` cannot read is refused and the value stays.
    public func setNumberText(format: @escaping @MainActor (Double) -> String, parse: @escaping @MainActor (String) -> Double?) {
        // A numeric spin button (what gtk_spin_button_new_with_range makes) takes only Western
        // digits, even from its own output handler: `parse` decides what is a number instead.
        gtk_spin_button_set_numeric(cast(pointer), 0)
        let data = Unmanaged.passRetained(SpinFormat(format: format, parse: parse)).toOpaque()
        let output: @convention(c) (OpaquePointer?, gpointer?) -> gboolean = { spin, data in
            guard let spin else { return 0 }
            let box = Unmanaged<SpinFormat>.fromOpaque(data!).takeUnretainedValue()
            let text = MainActor.assumeIsolated { box.format(gtk_spin_button_get_value(spin)) }
            let editable: OpaquePointer = cast(spin)
            let current = gtk_editable_get_text(editable).map { String(cString: $0) }
            if current != text { gtk_editable_set_text(editable, text) }
            return 1
        }
        let input: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Double>?, gpointer?) -> gint = { spin, value, data in
            guard let spin, let value else { return 0 }
            let box = Unmanaged<SpinFormat>.fromOpaque(data!).takeUnretainedValue()
            let editable: OpaquePointer = cast(spin)
            let text = gtk_editable_get_text(editable).map { String(cString: $0) } ?? ""
            guard let read = MainActor.assumeIsolated({ box.parse(text) }) else { return GTK_INPUT_ERROR }
            value.pointee = read
            return 1
        }
        let release: GClosureNotify = { data, _ in
            if let data { Unmanaged<SpinFormat>.fromOpaque(data).release() }
        }
        g_signal_connect_data(raw, "output", unsafeBitCast(output, to: GCallback.self), data, release, GConnectFlags(0))
        // The box is released once, by the output handler's closure; the input handler shares it.
        g_signal_connect_data(raw, "input", unsafeBitCast(input, to: GCallback.self), data, nil, GConnectFlags(0))
        // Setting the same value shows it again through the handler above.
        gtk_spin_button_set_value(cast(pointer), gtk_spin_button_get_value(cast(pointer)))
    }

    /// How many digits it shows after the decimal sign (from its step, or as set).
    public var digits: Int { Int(gtk_spin_button_get_digits(cast(pointer))) }
}
