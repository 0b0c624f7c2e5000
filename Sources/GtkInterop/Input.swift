// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// A key press as the window's key handler sees it.
public struct KeyPress: Sendable, Equatable {
    /// GDK's key name: "space", "Left", "Escape", "o".
    public var name: String
    public var control: Bool
    public var alt: Bool
    public var shift: Bool
}

private final class KeyCallback {
    let fn: @MainActor (KeyPress) -> Bool
    init(_ fn: @escaping @MainActor (KeyPress) -> Bool) { self.fn = fn }
}

private final class PointerCallback {
    let fn: @MainActor (Bool) -> Void
    init(_ fn: @escaping @MainActor (Bool) -> Void) { self.fn = fn }
}

@MainActor
extension WidgetWrapper {
    /// Sees every key press before the focused widget does (capture phase); return true to
    /// consume it. Shortcuts that must yield to the focused widget (Space on a button, arrows
    /// on a slider) check `focusIsA` first and return false to let it through.
    public func onKeyCapture(_ handler: @escaping @MainActor (KeyPress) -> Bool) {
        let controller = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        let data = Unmanaged.passRetained(KeyCallback(handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, state, data in
            guard let data, let cName = gdk_keyval_name(keyval) else { return 0 }
            let press = KeyPress(
                name: String(cString: cName),
                control: state.rawValue & GDK_CONTROL_MASK.rawValue != 0,
                alt: state.rawValue & GDK_ALT_MASK.rawValue != 0,
                shift: state.rawValue & GDK_SHIFT_MASK.rawValue != 0)
            let callback = Unmanaged<KeyCallback>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { callback.fn(press) } ? 1 : 0
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(controller), "key-pressed", unsafeBitCast(trampoline, to: GCallback.self), data,
            { data, _ in if let data { Unmanaged<KeyCallback>.fromOpaque(data).release() } }, GConnectFlags(0))
        gtk_widget_add_controller(pointer, controller)
    }

    /// Tells when a pointer button goes down (true) and up (false) on this widget, before the
    /// widget's own gestures see it (a slider being dragged, for instance). Never consumes.
    public func onPointerButton(_ handler: @escaping @MainActor (Bool) -> Void) {
        let controller = gtk_event_controller_legacy_new()!
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        let data = Unmanaged.passRetained(PointerCallback(handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, data in
            guard let data, let event else { return 0 }
            let type = gdk_event_get_event_type(event)
            let callback = Unmanaged<PointerCallback>.fromOpaque(data).takeUnretainedValue()
            if type == GDK_BUTTON_PRESS || type == GDK_TOUCH_BEGIN {
                MainActor.assumeIsolated { callback.fn(true) }
            } else if type == GDK_BUTTON_RELEASE || type == GDK_TOUCH_END || type == GDK_TOUCH_CANCEL {
                MainActor.assumeIsolated { callback.fn(false) }
            }
            return 0
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(controller), "event", unsafeBitCast(trampoline, to: GCallback.self), data,
            { data, _ in if let data { Unmanaged<PointerCallback>.fromOpaque(data).release() } }, GConnectFlags(0))
        gtk_widget_add_controller(pointer, controller)
    }
}

@MainActor
extension Window {
    /// Whether the widget that has the keyboard focus is (or is inside) one of these classes.
    public func focusIsA(_ typeNames: [String]) -> Bool {
        guard var widget = gtk_root_get_focus(OpaquePointer(pointer)) else { return false }
        while true {
            let w = Widget(unchecked: widget)
            if typeNames.contains(where: { w.isA($0) }) { return true }
            guard let parent = gtk_widget_get_parent(widget), parent != pointer else { return false }
            widget = parent
        }
    }

    /// Called with the window's width whenever the window is resized (and once now).
    public func onWidthChanged(_ handler: @escaping @MainActor (Int) -> Void) {
        let window = self
        on("notify::default-width") { handler(Int(window.defaultSize.width)) }
        handler(Int(defaultSize.width))
    }
}

@MainActor
extension Box {
    public var isVertical: Bool {
        get { gtk_orientable_get_orientation(OpaquePointer(pointer)) == GTK_ORIENTATION_VERTICAL }
        nonmutating set {
            gtk_orientable_set_orientation(OpaquePointer(pointer), newValue ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL)
        }
    }

    public var spacing: Int32 {
        get { gtk_box_get_spacing(cast(pointer)) }
        nonmutating set { gtk_box_set_spacing(cast(pointer), newValue) }
    }
}

@MainActor
extension WidgetWrapper {
    public func setSizeRequest(width: Int32, height: Int32) { gtk_widget_set_size_request(pointer, width, height) }
    /// Fills the width it is given (true) or takes its natural width, centred (false).
    public func setFillsWidth(_ fill: Bool) { gtk_widget_set_halign(pointer, fill ? GTK_ALIGN_FILL : GTK_ALIGN_CENTER) }
}

@MainActor
extension WidgetWrapper {
    /// The widget's minimum and natural width (for layout decisions and diagnostics).
    public var measuredWidth: (minimum: Int, natural: Int) {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(pointer, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        return (Int(minimum), Int(natural))
    }
}

private final class IntDropCallback {
    let fn: @MainActor (Int) -> Bool
    init(_ fn: @escaping @MainActor (Int) -> Bool) { self.fn = fn }
}

/// GType of `gint` (G_TYPE_INT is a macro Swift does not import: fundamental type 6 << 2).
private let gtypeInt = GType(6 << 2)

@MainActor
extension WidgetWrapper {
    /// Lets this widget be dragged (to reorder it), carrying `value`.
    public func makeDraggable(value: Int) {
        let source = gtk_drag_source_new()!
        var v = GValue()
        g_value_init(&v, gtypeInt)
        g_value_set_int(&v, Int32(clamping: value))
        let provider = gdk_content_provider_new_for_value(&v)
        g_value_unset(&v)
        gtk_drag_source_set_content(source, provider)
        g_object_unref(provider)
        gtk_drag_source_set_actions(source, GDK_ACTION_MOVE)
        gtk_widget_add_controller(pointer, cast(source))
    }

    /// Accepts a dragged value made by `makeDraggable` (another row); `handler` returns whether
    /// it took it.
    public func onIntDropped(_ handler: @escaping @MainActor (Int) -> Bool) {
        let target = gtk_drop_target_new(gtypeInt, GDK_ACTION_MOVE)!
        let data = Unmanaged.passRetained(IntDropCallback(handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?, UnsafePointer<GValue>?, Double, Double, gpointer?) -> gboolean = { _, value, _, _, data in
            guard let value, let data else { return 0 }
            let n = Int(g_value_get_int(value))
            let callback = Unmanaged<IntDropCallback>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { callback.fn(n) } ? 1 : 0
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(target), "drop", unsafeBitCast(trampoline, to: GCallback.self), data,
            { data, _ in if let data { Unmanaged<IntDropCallback>.fromOpaque(data).release() } }, GConnectFlags(0))
        gtk_widget_add_controller(pointer, cast(target))
    }
}

@MainActor
extension Popover {
    /// Ctrl+Q quits while the popover is open. A popover has its own surface and takes the
    /// keyboard, so the application's accelerator never saw the key; here the popover closes
    /// and `app.quit` runs, as if it had not been open.
    public func passQuitShortcut() {
        let popover = self
        onKeyCapture { key in
            guard key.control, key.name.lowercased() == "q" else { return false }
            gtk_popover_popdown(cast(popover.pointer))
            _ = gtk_widget_activate_action_variant(popover.pointer, "app.quit", nil)
            return true
        }
    }
}
