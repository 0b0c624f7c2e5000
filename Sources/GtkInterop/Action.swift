import CGtk

final class DrawBox {
    let fn: @MainActor (OpaquePointer, Int32, Int32) -> Void
    init(_ fn: @escaping @MainActor (OpaquePointer, Int32, Int32) -> Void) { self.fn = fn }
}

@MainActor
public enum Actions {
    /// Adds a parameterless GAction named `name` to `map` (an application or window).
    @discardableResult
    public static func add(_ map: some GObjectRef, _ name: String, accels: [String] = [],
                           app: UnsafeMutablePointer<GtkApplication>? = nil, prefix: String = "app",
                           _ handler: @escaping @MainActor () -> Void) -> OpaquePointer {
        let action = g_simple_action_new(name, nil)!
        action.on("activate", handler)
        g_action_map_add_action(cast(map), cast(action))
        if let app, !accels.isEmpty { setAccels(app, "\(prefix).\(name)", accels) }
        return action
    }

    public static func setAccels(_ app: UnsafeMutablePointer<GtkApplication>, _ detailed: String, _ accels: [String]) {
        var cstrs: [UnsafeMutablePointer<CChar>?] = accels.map { strdup($0) }
        cstrs.append(nil)
        cstrs.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buf.count) {
                gtk_application_set_accels_for_action(app, detailed, $0)
            }
        }
        for p in cstrs { free(p) }
    }

    public static func setEnabled(_ action: OpaquePointer, _ enabled: Bool) {
        g_simple_action_set_enabled(action, enabled.gboolean)
    }
}

@MainActor
public enum Drawing {
    /// Draws a GtkDrawingArea with `draw(cairo, width, height)`; the closure lives as long as the area.
    public static func setDrawFunc(_ area: Widget, _ draw: @escaping @MainActor (OpaquePointer, Int32, Int32) -> Void) {
        let data = Unmanaged.passRetained(DrawBox(draw)).toOpaque()
        gtk_drawing_area_set_draw_func(cast(area), { _, cr, w, h, data in
            let box = Unmanaged<DrawBox>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.fn(cr!, w, h) }
        }, data, { data in
            if let data { Unmanaged<DrawBox>.fromOpaque(data).release() }
        })
    }

    /// Sets the cairo source from a `#RRGGBBAA` string.
    public static func setColor(_ cr: OpaquePointer, rgba: (Double, Double, Double, Double)) {
        cairo_set_source_rgba(cr, rgba.0, rgba.1, rgba.2, rgba.3)
    }
}
