// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastProtocol
import GtkInterop

/// The subtitle style editor (style-editor.ui): every TextTrackStyle field, a live preview
/// drawn locally on a sample frame (StyleEditor+Preview.swift), Apply (sends it to the
/// receiver) and "Use as default" (GSettings; sent with every later load). Both buttons are
/// the action table's `apply-style` and `use-style-as-default`.
@MainActor
final class StyleEditor {
    static let resource = CastDeckApplication.resourcePath + "/ui/style-editor.ui"

    let model: AppModel
    var window: Window?
    var preview: DrawingArea?
    var actions: ModelActions?

    init(model: AppModel) { self.model = model }

    var toasts: ToastOverlay?
    var lastNotice = 0
    /// The builder of the current editor. It holds a reference to the window, so `window`
    /// stays valid memory after GTK has destroyed it.
    private var ui: Builder?

    /// Opens the editor on the style the device shows now (or the saved default, when nothing
    /// has been applied there), built afresh so every control shows that style.
    func present(parent: Window?) {
        // An editor that is still open goes (one the user closed is gone already): a closed
        // window is destroyed, never kept hidden (Window.destroyWhenClosed says why).
        window?.destroy()
        window = nil
        model.draftStyle = model.deviceStyle ?? model.defaultStyle ?? .default
        lastNotice = model.notice?.serial ?? 0
        do { try build(parent: parent) } catch {
            model.post(tr("The subtitle style editor could not be loaded."), detail: "\(error)")
            return
        }
        window?.present()
    }

    /// Whether the editor is on screen (its notices show in it, not behind it).
    var isShown: Bool { window?.isVisible == true }

    var style: TextTrackStyle {
        get { model.draftStyle }
        set {
            model.draftStyle = newValue
            preview?.queueDraw()
        }
    }

    private func build(parent: Window?) throws {
        let ui = try Builder(resource: Self.resource)
        self.ui = ui
        let win: AdwWindow = ui.get("window")
        // style-editor.ui keeps it hidden on close; it is destroyed instead.
        win.asWindow.destroyWhenClosed()
        window = win.asWindow
        toasts = ui.get("toasts")
        win.asWindow.setTransientFor(parent)
        // No wider than the window it belongs to (a phone-width window is 360 px).
        if let parent { win.asWindow.defaultSize = (min(480, max(320, parent.defaultSize.width)), 720) }
        // Escape and Ctrl+W close it, as they close other GNOME dialogs and secondary windows.
        // (The handler belongs to the window's own key controller, so the window outlives it.)
        let shown = win.asWindow
        shown.onKeyCapture { key in
            guard key.name == "Escape" || (key.control && key.name.lowercased() == "w") else { return false }
            shown.close()
            return true
        }
        let actions = ModelActions(model: model, names: [.applyStyle, .useStyleAsDefault])
        actions.install(into: win)
        self.actions = actions
        let area: DrawingArea = ui.get("preview")
        area.setDrawFunc { [unowned self] cr, w, h in self.drawPreview(cr, w, h) }
        preview = area

        let text: PreferencesGroup = ui.get("text-group")
        colorRow(text, tr("Text color and opacity"), \.foregroundColor, "#FFFFFFFF")
        spinRow(text, tr("Font scale"), 0.5, 3, 0.1, \.fontScale, 1)
        entryRow(text, tr("Font family"), \.fontFamily)
        choiceRow(
            text, tr("Generic family"), \.fontGenericFamily,
            [
                (.sansSerif, tr("Sans serif")), (.serif, tr("Serif")), (.monospacedSansSerif, tr("Monospace")),
                (.monospacedSerif, tr("Monospace serif")), (.casual, tr("Casual")), (.cursive, tr("Cursive")),
                (.smallCapitals, tr("Small capitals")),
            ])
        toggleRow(
            text, tr("Font style"), \.fontStyle,
            [
                (.normal, tr("Normal")), (.bold, tr("Bold")), (.italic, tr("Italic")), (.boldItalic, tr("Bold italic")),
            ])

        let box: PreferencesGroup = ui.get("background-group")
        colorRow(box, tr("Background color and opacity"), \.backgroundColor, "#000000FF")
        toggleRow(
            box, tr("Edge type"), \.edgeType,
            [
                (.none, tr("None")), (.outline, tr("Outline")), (.dropShadow, tr("Drop shadow")),
                (.raised, tr("Raised")), (.depressed, tr("Depressed")),
            ])
        colorRow(box, tr("Edge color"), \.edgeColor, "#000000FF")

        let wnd: PreferencesGroup = ui.get("window-group")
        toggleRow(
            wnd, tr("Window type"), \.windowType,
            [
                (.none, tr("None")), (.normal, tr("Normal")), (.roundedCorners, tr("Rounded corners")),
            ])
        colorRow(wnd, tr("Window color"), \.windowColor, "#00000000")
        spinRow(wnd, tr("Corner radius"), 0, 40, 1, \.windowRoundedCornerRadius, 0)
        // The action table decides whether Apply can be sent; keep it current while open.
        observeActions = observe { [unowned self] in self.actions?.refresh() }
        // Apply's result and "saved as default" show here, in front of the user.
        observeNotices = observe { [unowned self] in
            guard let n = self.model.notice, n.serial != self.lastNotice, self.isShown else { return }
            self.lastNotice = n.serial
            self.toasts?.toast(n.text)
        }
    }

    var observeNotices: ObservationToken?

    var observeActions: ObservationToken?

    // MARK: rows (one per style field)

    private func row(_ group: PreferencesGroup, _ title: String, _ control: some WidgetWrapper) {
        let r = ActionRow(title: title)
        control.setAlignCenter()
        control.setAccessibleName(title)
        r.addSuffix(control)
        group.add(r)
    }

    private func colorRow(
        _ group: PreferencesGroup, _ title: String, _ key: WritableKeyPath<TextTrackStyle, String?>,
        _ fallback: String
    ) {
        let button = ColorButton(color: Self.rgba(style[keyPath: key] ?? fallback), title: title)
        row(group, title, button)
        // Named on its inner button, with the chosen colour as the description (kept current).
        let describe = { button.setAccessible(name: title, description: Self.colorDescription(button.color)) }
        describe()
        button.onColorSet { [unowned self] in
            self.style[keyPath: key] = Self.hex(button.color)
            describe()
        }
    }

    private func spinRow(
        _ group: PreferencesGroup, _ title: String, _ lo: Double, _ hi: Double, _ step: Double,
        _ key: WritableKeyPath<TextTrackStyle, Double?>, _ fallback: Double
    ) {
        let spin = SpinButton(lower: lo, upper: hi, step: step)
        // In the UI language's digits and decimal sign (Persian "۱٫۵"), read back the same way.
        let digits = spin.digits
        spin.setNumberText(format: { Localization.formatDecimal($0, fractionDigits: digits) }, parse: { Localization.parseDecimal($0) })
        spin.value = style[keyPath: key] ?? fallback
        spin.onValueChanged { [unowned self] in self.style[keyPath: key] = spin.value }
        row(group, title, spin)
    }

    private func entryRow(_ group: PreferencesGroup, _ title: String, _ key: WritableKeyPath<TextTrackStyle, String?>) {
        let entry = Entry(placeholder: tr("Receiver default"))
        entry.text = style[keyPath: key] ?? ""
        entry.onChanged { [unowned self] in
            let t = entry.text
            self.style[keyPath: key] = t.isEmpty ? nil : t
        }
        row(group, title, entry)
    }

    /// A choice shown as a column of one-of-many rows under its title (a check mark on the
    /// chosen one; a radio button for assistive technology, named "Edge type: Outline"). A
    /// column fits any window width in any language; linked buttons side by side broke into
    /// pieces on a phone-width window.
    private func toggleRow<V: Equatable>(
        _ group: PreferencesGroup, _ title: String,
        _ key: WritableKeyPath<TextTrackStyle, V?>, _ options: [(V, String)]
    ) {
        let column = Box(vertical: true, spacing: 0)
        var first: ToggleButton?
        let current = style[keyPath: key] ?? options[0].0
        for (value, label) in options {
            let b = ToggleButton.choice(label, maxWidthChars: 30)
            b.setAccessibleName("\(title): \(label)")
            if let first { b.join(first) } else { first = b }
            b.isActive = value == current
            b.onToggled { [unowned self] in
                if b.isActive { self.style[keyPath: key] = value }
            }
            column.append(b)
        }
        let v = Box(vertical: true, spacing: 6)
        v.setMargins(12)
        let heading = Label(title)
        heading.setAlignStart()
        v.append(heading)
        v.append(column)
        group.add(PreferencesRow(title: title, child: v))
    }

    private func choiceRow<V: Equatable>(
        _ group: PreferencesGroup, _ title: String,
        _ key: WritableKeyPath<TextTrackStyle, V?>, _ options: [(V, String)]
    ) {
        let dd = DropDown(strings: options.map(\.1))
        let current = style[keyPath: key] ?? options[0].0
        dd.selected = options.firstIndex { $0.0 == current } ?? 0
        dd.onSelectedChanged { [unowned self] in
            let i = dd.selected
            if i < options.count { self.style[keyPath: key] = options[i].0 }
        }
        row(group, title, dd)
    }

    // MARK: colors

    static func rgba(_ hex: String?, _ fallback: String = "#FFFFFFFF") -> RGBA {
        let c = CastColor(hex: hex ?? fallback) ?? CastColor(red: 255, green: 255, blue: 255)
        return RGBA(
            red: Double(c.red) / 255, green: Double(c.green) / 255, blue: Double(c.blue) / 255,
            alpha: Double(c.alpha) / 255)
    }

    /// "#FF0000, 50% opaque" for screen readers.
    static func colorDescription(_ c: RGBA) -> String {
        let hex = String(self.hex(c).prefix(7))
        return tr("{0}, {1} percent opaque", isolateLTR(hex), Int((c.alpha * 100).rounded()))
    }

    static func hex(_ c: RGBA) -> String {
        // GdkRGBA keeps single-precision components: round as the float does.
        func b(_ f: Double) -> UInt8 { UInt8(max(0, min(255, (Float(f) * 255).rounded()))) }
        return CastColor(red: b(c.red), green: b(c.green), blue: b(c.blue), alpha: b(c.alpha)).hex
    }
}
