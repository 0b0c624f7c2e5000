// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// Carries a Swift closure through a C `gpointer user_data`.
final class ClosureBox<F> {
    let fn: F
    init(_ fn: F) { self.fn = fn }
}

/// Balances `passRetained` below: GLib calls it on disconnect or when the instance is finalized,
/// so a closure lives exactly as long as its connection.
private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

extension GObjectRef {
    /// Connects a handler that ignores the signal's arguments, for any void signal.
    /// With G_CONNECT_SWAPPED, GLib passes user_data first, so a one-argument trampoline fits
    /// every arity. GTK emits on the main thread, which is the MainActor's thread on Linux.
    @MainActor @discardableResult
    public func on(_ signal: String, _ handler: @escaping @MainActor () -> Void) -> gulong {
        let data = Unmanaged.passRetained(ClosureBox(handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?) -> Void = { data in
            let box = Unmanaged<ClosureBox<@MainActor () -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.fn() }
        }
        return g_signal_connect_data(
            raw, signal, unsafeBitCast(trampoline, to: GCallback.self),
            data, releaseBox, G_CONNECT_SWAPPED)
    }

    /// A handler for signals with one pointer argument, e.g. GtkListBox::row-activated.
    @MainActor @discardableResult
    public func on(_ signal: String, _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
        let data = Unmanaged.passRetained(ClosureBox(handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, arg, data in
            let box = Unmanaged<ClosureBox<@MainActor (UnsafeMutableRawPointer?) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.fn(arg) }
        }
        return g_signal_connect_data(
            raw, signal, unsafeBitCast(trampoline, to: GCallback.self),
            data, releaseBox, GConnectFlags(0))
    }

    /// A handler for signals that return gboolean (close-request, change-value with swapped args ignored).
    @MainActor @discardableResult
    public func onBool(_ signal: String, _ handler: @escaping @MainActor () -> Bool) -> gulong {
        let data = Unmanaged.passRetained(ClosureBox(handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?) -> gboolean = { data in
            let box = Unmanaged<ClosureBox<@MainActor () -> Bool>>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { box.fn() } ? 1 : 0
        }
        return g_signal_connect_data(
            raw, signal, unsafeBitCast(trampoline, to: GCallback.self),
            data, releaseBox, G_CONNECT_SWAPPED)
    }

    /// GtkRange::change-value (range, GtkScrollType, double value) -> gboolean: user-initiated moves only.
    @MainActor @discardableResult
    public func onChangeValue(_ handler: @escaping @MainActor (Double) -> Bool) -> gulong {
        let data = Unmanaged.passRetained(ClosureBox(handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?, Int32, Double, gpointer?) -> gboolean = { _, _, value, data in
            let box = Unmanaged<ClosureBox<@MainActor (Double) -> Bool>>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { box.fn(value) } ? 1 : 0
        }
        return g_signal_connect_data(
            raw, "change-value", unsafeBitCast(trampoline, to: GCallback.self),
            data, releaseBox, GConnectFlags(0))
    }

    /// Emits a void signal without arguments (g_signal_emit_by_name is variadic, so not importable).
    public func emit(_ signal: String) {
        let type = raw.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
        var instance = GValue()
        g_value_init(&instance, type)
        g_value_set_object(&instance, raw)
        g_signal_emitv(&instance, g_signal_lookup(signal, type), 0, nil)
        g_value_unset(&instance)
    }

    public func disconnect(_ handlerID: gulong) {
        g_signal_handler_disconnect(raw, handlerID)
    }
}

/// GLib timeouts and idles running Swift closures on the main loop.
public enum GLibSource {
    private static let releaseData: GDestroyNotify = { data in
        if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
    }

    /// Repeats while `handler` returns true.
    @MainActor @discardableResult
    public static func timeout(ms: UInt32, _ handler: @escaping @MainActor () -> Bool) -> guint {
        let data = Unmanaged.passRetained(ClosureBox(handler)).toOpaque()
        return g_timeout_add_full(
            G_PRIORITY_DEFAULT, ms,
            { data in
                let box = Unmanaged<ClosureBox<@MainActor () -> Bool>>.fromOpaque(data!).takeUnretainedValue()
                return MainActor.assumeIsolated { box.fn() } ? 1 : 0
            }, data, releaseData)
    }

    @MainActor @discardableResult
    public static func idle(_ handler: @escaping @MainActor () -> Void) -> guint {
        let data = Unmanaged.passRetained(ClosureBox(handler)).toOpaque()
        return g_idle_add_full(
            G_PRIORITY_DEFAULT_IDLE,
            { data in
                let box = Unmanaged<ClosureBox<@MainActor () -> Void>>.fromOpaque(data!).takeUnretainedValue()
                MainActor.assumeIsolated { box.fn() }
                return 0
            }, data, releaseData)
    }

    @MainActor public static func remove(_ id: guint) {
        if id != 0 { g_source_remove(id) }
    }
}
