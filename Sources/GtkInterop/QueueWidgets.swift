// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

// Constructors and calls the queue list needs (CastDeckUI/QueueView.swift): rows, their
// menus and a scroll position to fetch items as they come into view.

@MainActor
extension Button {
    public init(label: String) { self.init(unchecked: gtk_button_new_with_label(label)) }
    public init(iconName: String) { self.init(unchecked: gtk_button_new_from_icon_name(iconName)) }
}

@MainActor
extension WidgetWrapper {
    /// Binds any actionable widget (button, toggle) to "win.<name>" with a target value.
    public func bindAction(_ detailedName: String, target: SimpleAction.Value?) {
        gtk_actionable_set_action_name(cast(pointer), detailedName)
        gtk_actionable_set_action_target_value(cast(pointer), target.map(SimpleAction.variant))
    }
}

@MainActor
extension MenuButton {
    public init(iconName: String) {
        self.init(unchecked: gtk_menu_button_new())
        gtk_menu_button_set_icon_name(cast(pointer), iconName)
    }

    /// Makes the button's popover the first time it opens instead of now: each row of a long
    /// list carries a menu, and almost none is ever opened (a page of 100 rows made 100
    /// popovers with four buttons each on every queue change).
    public func setPopoverFactory(_ make: @escaping @MainActor () -> Popover) {
        let data = Unmanaged.passRetained(PopoverFactory(make)).toOpaque()
        gtk_menu_button_set_create_popup_func(
            cast(pointer),
            { button, data in
                let factory = Unmanaged<PopoverFactory>.fromOpaque(data!).takeUnretainedValue()
                MainActor.assumeIsolated {
                    guard let button, gtk_menu_button_get_popover(button) == nil else { return }
                    gtk_menu_button_set_popover(button, factory.make().pointer)
                }
            }, data,
            { data in
                if let data { Unmanaged<PopoverFactory>.fromOpaque(data).release() }
            })
    }
}

@MainActor
extension MenuButton {
    /// Gives the button the menu `id` of `builder` when it first opens. Setting a menu model
    /// makes its popover and a button per item at once; a window's main menu is then built
    /// before its first frame for a menu nobody has opened. The button stays sensitive (GTK
    /// treats a create-popup function as a popover to come), and opens the same menu.
    public func setMenuOnFirstOpen(from builder: Builder, id: String) {
        guard let model = builder.object(id) else { preconditionFailure("UI definition has no menu '\(id)'") }
        g_object_ref(model)
        gtk_menu_button_set_create_popup_func(
            cast(pointer),
            { button, data in
                guard let button, gtk_menu_button_get_popover(button) == nil, let data else { return }
                gtk_menu_button_set_menu_model(button, data.assumingMemoryBound(to: GMenuModel.self))
            }, model,
            { data in
                if let data { g_object_unref(data) }
            })
    }
}

final class PopoverFactory {
    let make: @MainActor () -> Popover
    init(_ make: @escaping @MainActor () -> Popover) { self.make = make }
}

@MainActor
extension Popover {
    public init(child: some WidgetWrapper) {
        self.init(unchecked: gtk_popover_new())
        gtk_popover_set_child(cast(pointer), child.pointer)
    }
    public func popdown() { gtk_popover_popdown(cast(pointer)) }
    public func onShow(_ handler: @escaping @MainActor () -> Void) -> gulong { on("show", handler) }
}

@MainActor
extension Image {
    public init(iconName: String, pixelSize: Int32 = 32) {
        self.init(unchecked: gtk_image_new_from_icon_name(iconName))
        gtk_image_set_pixel_size(cast(pointer), pixelSize)
    }
}

@MainActor
extension ActionRow {
    public func addPrefix(_ w: some WidgetWrapper) { adw_action_row_add_prefix(cast(pointer), w.pointer) }
}

@MainActor
extension ListBox {
    /// The row at `index` (nil past the end).
    public func row(at index: Int) -> Widget? {
        gtk_list_box_get_row_at_index(cast(pointer), Int32(index)).map {
            Widget(unchecked: UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self))
        }
    }
}

/// A GtkAdjustment (a scrolled window's position).
public struct Adjustment: GObjectRef {
    public let raw: UnsafeMutableRawPointer
}

@MainActor
extension Adjustment {
    public var value: Double { gtk_adjustment_get_value(cast(self)) }
    public var upper: Double { gtk_adjustment_get_upper(cast(self)) }
    public var pageSize: Double { gtk_adjustment_get_page_size(cast(self)) }
    @discardableResult
    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) -> gulong { on("value-changed", handler) }
}

@MainActor
extension ScrolledWindow {
    public var verticalAdjustment: Adjustment { Adjustment(raw: UnsafeMutableRawPointer(gtk_scrolled_window_get_vadjustment(cast(pointer)))) }
}

@MainActor
extension MessageDialog {
    public func setBody(_ text: String) { adw_message_dialog_set_body(cast(pointer), text) }
}
