// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CGio
import Foundation
import Synchronization

private let portalBus = "org.freedesktop.portal.Desktop"
private let portalPath = "/org/freedesktop/portal/desktop"
private let screenCast = "org.freedesktop.portal.ScreenCast"

/// A Request's answer, filled by the Response signal.
private final class PortalResponse {
    var code: UInt32?
    var results: OpaquePointer?
}

/// One exchange with the portal on the session bus, on the calling thread: a main context of
/// its own is the thread's default while it lasts, so the Response signals of the requests
/// arrive here and nowhere else.
final class PortalConversation {
    private let connection: OpaquePointer
    private let context: OpaquePointer
    private let sender: String
    private let cancelled: () -> Bool
    private var counter = 0

    init(cancelled: @escaping () -> Bool) throws(ScreenCaptureError) {
        let bus = try SessionBus.connection()
        connection = bus
        context = g_main_context_new()
        g_main_context_push_thread_default(context)
        // The request handles the portal makes: /org/freedesktop/portal/desktop/request/SENDER/TOKEN,
        // SENDER being the unique name without its colon and with dots as underscores.
        let unique = g_dbus_connection_get_unique_name(bus).map { String(cString: $0) } ?? ""
        sender = String(unique.drop(while: { $0 == ":" })).replacingOccurrences(of: ".", with: "_")
        self.cancelled = cancelled
        // Wakes the wait below now and then, so a cancellation is noticed.
        let tick = g_timeout_source_new(200)
        g_source_set_callback(tick, { _ in 1 }, nil, nil)
        g_source_attach(tick, context)
        g_source_unref(tick)
    }

    func finish() {
        g_main_context_pop_thread_default(context)
        g_main_context_unref(context)
    }

    /// A fresh handle token.
    func token() -> String {
        counter += 1
        return "castdeck\(getpid())_\(counter)"
    }

    /// The portal's AvailableSourceTypes and AvailableCursorModes; failing here means there is
    /// no ScreenCast portal at all.
    func capabilities() throws(ScreenCaptureError) -> (UInt32, UInt32) {
        (try property("AvailableSourceTypes"), (try? property("AvailableCursorModes")) ?? 0)
    }

    private func property(_ name: String) throws(ScreenCaptureError) -> UInt32 {
        let reply = try call(
            path: portalPath, interface: "org.freedesktop.DBus.Properties", method: "Get",
            parameters: PortalVariant.tuple([PortalVariant.string(screenCast), PortalVariant.string(name)]))
        defer { g_variant_unref(reply) }
        guard let boxed = PortalVariant.child(reply, 0) else { return 0 }
        defer { g_variant_unref(boxed) }
        guard let inner = g_variant_get_variant(boxed) else { return 0 }
        defer { g_variant_unref(inner) }
        return PortalVariant.uint32Value(inner) ?? 0
    }

    /// Calls a ScreenCast method that answers through a Request, and waits for its Response:
    /// the results on success, one sentence otherwise.
    func request(_ method: String, leading: [OpaquePointer], options: [(String, OpaquePointer)]) throws(ScreenCaptureError) -> OpaquePointer {
        let token = token()
        let expected = "\(portalPath)/request/\(sender)/\(token)"
        let response = PortalResponse()
        let box = Unmanaged.passRetained(response)
        defer { box.release() }
        let subscription = g_dbus_connection_signal_subscribe(
            connection, portalBus, "org.freedesktop.portal.Request", "Response", expected, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, data in
                guard let parameters, let data else { return }
                let response = Unmanaged<PortalResponse>.fromOpaque(data).takeUnretainedValue()
                guard response.code == nil, let code = PortalVariant.child(parameters, 0) else { return }
                response.code = PortalVariant.uint32Value(code) ?? 2
                g_variant_unref(code)
                response.results = PortalVariant.child(parameters, 1)
            }, box.toOpaque(), nil)
        defer { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        let handle = try call(
            path: portalPath, interface: screenCast, method: method,
            parameters: PortalVariant.tuple(leading + [PortalVariant.options(options + [("handle_token", PortalVariant.string(token))])]))
        let handlePath = PortalVariant.child(handle, 0).flatMap { v in
            defer { g_variant_unref(v) }
            return PortalVariant.text(v)
        }
        g_variant_unref(handle)
        while response.code == nil {
            if cancelled() {
                if let handlePath { closeObject(handlePath, interface: "org.freedesktop.portal.Request") }
                throw .portalRefused("Screen sharing was cancelled before anything was chosen.")
            }
            g_main_context_iteration(context, 1)
        }
        switch response.code {
        case 0:
            return response.results ?? PortalVariant.options([])
        case 1:
            if let r = response.results { g_variant_unref(r) }
            throw .portalRefused("Screen sharing was refused in the desktop's dialog, so nothing was cast.")
        default:
            if let r = response.results { g_variant_unref(r) }
            throw .portalFailed("The screen-cast portal could not share the screen (its \(method) failed); try again, or use an X11 session.")
        }
    }

    /// OpenPipeWireRemote: a file descriptor for the PipeWire connection that may see the stream.
    func openPipeWireRemote(session: String) throws(ScreenCaptureError) -> Int32 {
        var error: UnsafeMutablePointer<GError>?
        var fds: UnsafeMutablePointer<GUnixFDList>?
        let reply = g_dbus_connection_call_with_unix_fd_list_sync(
            connection, portalBus, portalPath, screenCast, "OpenPipeWireRemote",
            PortalVariant.tuple([PortalVariant.objectPath(session), PortalVariant.options([])]), g_variant_type_checked_("(h)"),
            G_DBUS_CALL_FLAGS_NONE, -1, nil, &fds, nil, &error)
        guard let reply else { throw .portalFailed("The screen-cast portal gave no PipeWire connection (\(Self.take(error))).") }
        defer {
            g_variant_unref(reply)
            if let fds { g_object_unref(fds) }
        }
        guard let indexValue = PortalVariant.child(reply, 0), let fds else { throw .portalFailed("The screen-cast portal gave no PipeWire connection.") }
        let index = g_variant_get_handle(indexValue)
        g_variant_unref(indexValue)
        let fd = g_unix_fd_list_get(fds, index, &error)
        guard fd >= 0 else { throw .portalFailed("The screen-cast portal's PipeWire connection cannot be used (\(Self.take(error))).") }
        return fd
    }

    func closeSession(_ session: String) { closeObject(session, interface: "org.freedesktop.portal.Session") }

    private func closeObject(_ path: String, interface: String) {
        _ = try? call(path: path, interface: interface, method: "Close", parameters: nil)
    }

    private func call(path: String, interface: String, method: String, parameters: OpaquePointer?) throws(ScreenCaptureError) -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        if let reply = g_dbus_connection_call_sync(connection, portalBus, path, interface, method, parameters, nil, G_DBUS_CALL_FLAGS_NONE, 30_000, nil, &error)
        {
            return reply
        }
        let remote = error.flatMap { g_dbus_error_get_remote_error($0) }.map { name in
            defer { g_free(name) }
            return String(cString: name)
        }
        let said = Self.take(error)
        if let remote,
            remote.hasSuffix("ServiceUnknown") || remote.hasSuffix("UnknownInterface") || remote.hasSuffix("UnknownMethod")
                || remote.hasSuffix("InvalidArgs") && interface == "org.freedesktop.DBus.Properties"
        {
            throw .portalFailed(
                "This desktop has no screen-cast portal (xdg-desktop-portal with a GNOME, KDE or wlroots backend), so the screen cannot be shared.")
        }
        throw .portalFailed("The screen-cast portal did not answer \(method) (\(said)).")
    }

    /// A GError's message, freed.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }
}

/// The session bus connection, kept for the life of the process: a portal session belongs to
/// the connection that made it and ends with it, so every later call (OpenPipeWireRemote,
/// Close) must come over the same one.
private enum SessionBus {
    private struct Held: @unchecked Sendable { let pointer: OpaquePointer }
    private static let held = Mutex<Held?>(nil)

    static func connection() throws(ScreenCaptureError) -> OpaquePointer {
        let result: Result<OpaquePointer, ScreenCaptureError> = held.withLock { held in
            if let held { return .success(held.pointer) }
            var error: UnsafeMutablePointer<GError>?
            guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
                return .failure(
                    .portalFailed("There is no desktop session bus, so the screen-cast portal cannot be asked (\(PortalConversation.take(error)))."))
            }
            held = Held(pointer: bus)
            return .success(bus)
        }
        return try result.get()
    }
}
