// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// A GAction: what buttons (`action-name` in .ui files), keyboard accelerators and menu items
/// activate. Stateful actions carry the value a toggle group or a check button shows.
@MainActor
public final class SimpleAction {
    /// The parameter an activation carries (GVariant types "d", "i", "b").
    public enum ParameterType: Sendable { case none, double, int, bool }

    /// A parameter or state value.
    public enum Value: Equatable, Sendable {
        case bool(Bool)
        case int(Int)
        case double(Double)
    }

    public let name: String
    nonisolated(unsafe) let action: OpaquePointer

    /// - Parameters:
    ///   - parameter: the type of the activation's parameter.
    ///   - state: the initial state, for a stateful action (its type stays fixed).
    ///   - activate: called with the parameter on every activation. A stateful action's state
    ///     does not change by itself; the owner sets it with `setState(_:)`.
    public init(
        name: String, parameter: ParameterType = .none, state: Value? = nil,
        activate: @escaping @MainActor (Value?) -> Void
    ) {
        self.name = name
        let type = Self.variantType(parameter)
        if let state {
            action = g_simple_action_new_stateful(name, type, Self.variant(state))
        } else {
            action = g_simple_action_new(name, type)
        }
        action.on("activate") { (parameter: UnsafeMutableRawPointer?) in
            activate(parameter.map { Self.value(OpaquePointer($0)) })
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(action)) }

    public var isEnabled: Bool {
        get { g_action_get_enabled(cast(action)).isTrue }
        set { if isEnabled != newValue { g_simple_action_set_enabled(action, newValue.gboolean) } }
    }

    public var state: Value? {
        guard let v = g_action_get_state(cast(action)) else { return nil }
        defer { g_variant_unref(v) }
        return Self.value(v)
    }

    /// Sets the state (bound toggle buttons follow); the same value again does nothing.
    public func setState(_ value: Value) {
        if state != value { g_simple_action_set_state(action, Self.variant(value)) }
    }

    /// Activates the action as a button bound to it would.
    public func activate(_ parameter: Value? = nil) {
        g_action_activate(cast(action), parameter.map(Self.variant))
    }

    private static func variantType(_ p: ParameterType) -> OpaquePointer? {
        switch p {
        case .none: return nil
        case .double: return cgtk_variant_type_double()
        case .int: return cgtk_variant_type_int32()
        case .bool: return cgtk_variant_type_boolean()
        }
    }

    static func variant(_ v: Value) -> OpaquePointer {
        switch v {
        case .bool(let b): g_variant_new_boolean(b.gboolean)
        case .int(let i): g_variant_new_int32(Int32(clamping: i))
        case .double(let d): g_variant_new_double(d)
        }
    }

    private static func value(_ v: OpaquePointer) -> Value {
        if g_variant_is_of_type(v, cgtk_variant_type_double()).isTrue { return .double(g_variant_get_double(v)) }
        if g_variant_is_of_type(v, cgtk_variant_type_int32()).isTrue { return .int(Int(g_variant_get_int32(v))) }
        return .bool(g_variant_get_boolean(v).isTrue)
    }
}

/// The AdwApplication: single instance through D-Bus, app-wide actions and accelerators.
/// With an application id, GTK also loads the compiled-in `style.css`, `icons/` and (if there
/// is one) `gtk/help-overlay.ui` from the resource path derived from the id.
@MainActor
public final class Application {
    let app: UnsafeMutablePointer<AdwApplication>

    /// With `handlesOpen`, files given to `run(files:)` (or to a second launch, which hands
    /// them to the running instance over D-Bus) arrive through `onOpen` instead of activate.
    public init(id: String, handlesOpen: Bool = false) {
        app = adw_application_new(id, handlesOpen ? G_APPLICATION_HANDLES_OPEN : G_APPLICATION_DEFAULT_FLAGS)
    }

    public func onStartup(_ handler: @escaping @MainActor () -> Void) { app.on("startup", handler) }
    public func onActivate(_ handler: @escaping @MainActor () -> Void) { app.on("activate", handler) }

    /// Runs the main loop until the last window closes or `quit()`; returns GLib's exit status.
    /// `files` (paths or URIs) are opened by the primary instance: this one, or the one
    /// already running on the session bus.
    public func run(files: [String] = []) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments.first ?? "castdeck")]
        argv += files.map { strdup($0) }
        argv.append(nil)
        defer { for p in argv { free(p) } }
        return g_application_run(cast(app), Int32(argv.count - 1), &argv)
    }

    public func quit() { g_application_quit(cast(app)) }

    /// A desktop notification (GNotification) under `id`; one with the same id replaces it.
    /// Clicking it activates the application (its window comes back).
    public func notify(id: String, title: String, body: String) {
        let n = g_notification_new(title)!
        g_notification_set_body(n, body)
        g_application_send_notification(cast(app), id, n)
        g_object_unref(UnsafeMutableRawPointer(n))
    }

    /// Adds an "app.<name>" action.
    public func add(_ action: SimpleAction) { g_action_map_add_action(cast(app), cast(action.action)) }

    /// Sets the accelerators of a detailed action name ("app.quit", "win.toggle-play").
    public func setAccels(_ detailed: String, _ accels: [String]) {
        var cstrs: [UnsafeMutablePointer<CChar>?] = accels.map { strdup($0) }
        cstrs.append(nil)
        cstrs.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buf.count) {
                gtk_application_set_accels_for_action(cast(app), detailed, $0)
            }
        }
        for p in cstrs { free(p) }
    }
}

/// A group of actions inserted into one widget under a prefix ("win" for a window that is not
/// a GtkApplicationWindow, such as an AdwWindow).
@MainActor
public final class ActionGroup {
    nonisolated(unsafe) private let group: UnsafeMutableRawPointer

    public init() { group = UnsafeMutableRawPointer(g_simple_action_group_new()) }
    deinit { g_object_unref(group) }

    public func add(_ action: SimpleAction) { g_action_map_add_action(cast(group), cast(action.action)) }

    /// Makes the actions available to `widget` and its children as "<prefix>.<name>".
    public func insert(into widget: some WidgetWrapper, prefix: String) {
        gtk_widget_insert_action_group(widget.pointer, prefix, cast(group))
    }
}

/// Opens `uri` with the desktop's handler for its scheme (the browser for a web link), as
/// g_app_info_launch_default_for_uri does; throws GLib's error when nothing could open it.
/// The caller decides what may be opened (CastDeck: only http and https links).
@MainActor
public func launchDefaultHandler(for uri: String) throws {
    _ = try withGError { g_app_info_launch_default_for_uri(uri, nil, $0) }
}
