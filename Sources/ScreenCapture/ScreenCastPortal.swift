// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CGio
import Foundation
import Synchronization

/// A screen shared through the desktop's ScreenCast portal (org.freedesktop.portal.ScreenCast,
/// how Wayland desktops let an application see the screen): the portal shows its own picker,
/// the person chooses a monitor or a window, and the portal hands over a PipeWire stream.
/// `open` runs the whole exchange (CreateSession, SelectSources, Start) on the calling thread
/// and blocks until the person has chosen, so call it off the GUI thread. The session lasts
/// until `close` (or until this process's D-Bus connection ends).
public final class ScreenCastPortal: Sendable, CustomStringConvertible {
    /// The PipeWire node carrying the picture.
    public let nodeID: UInt32
    /// The stream's size when sharing began.
    public let size: PixelSize
    /// Whether the person chose a window rather than a whole monitor.
    public let isWindow: Bool
    private let sessionHandle: String

    private init(nodeID: UInt32, size: PixelSize, isWindow: Bool, sessionHandle: String) {
        self.nodeID = nodeID
        self.size = size
        self.isWindow = isWindow
        self.sessionHandle = sessionHandle
    }

    public var description: String { isWindow ? "the window chosen in the desktop's dialog" : "the screen chosen in the desktop's dialog" }

    /// Asks the portal for a screen (or window) to share; `cancelled` is polled while the
    /// picker is open, and a true answer closes the request.
    public static func open(cancelled: @escaping @Sendable () -> Bool = { false }) throws(ScreenCaptureError) -> ScreenCastPortal {
        let talk = try PortalConversation(cancelled: cancelled)
        defer { talk.finish() }
        let (sourceTypes, cursorModes) = try talk.capabilities()
        let created = try talk.request("CreateSession", leading: [], options: [("session_handle_token", PortalVariant.string(talk.token()))])
        defer { g_variant_unref(created) }
        guard let handleValue = PortalVariant.lookup(created, "session_handle"), let session = PortalVariant.text(handleValue) else {
            throw .portalFailed("The screen-cast portal made no session, so the screen cannot be shared.")
        }
        g_variant_unref(handleValue)
        do {
            var options: [(String, OpaquePointer)] = [
                ("types", PortalVariant.uint32(sourceTypes & 3 == 0 ? 1 : sourceTypes & 3)), ("multiple", PortalVariant.bool(false)),
            ]
            // The pointer drawn into the picture, as on X11, when the portal can.
            if cursorModes & 2 != 0 { options.append(("cursor_mode", PortalVariant.uint32(2))) }
            g_variant_unref(try talk.request("SelectSources", leading: [PortalVariant.objectPath(session)], options: options))
            let started = try talk.request("Start", leading: [PortalVariant.objectPath(session), PortalVariant.string("")], options: [])
            defer { g_variant_unref(started) }
            return try Self.firstStream(of: started, session: session)
        } catch let e as ScreenCaptureError {
            talk.closeSession(session)
            throw e
        } catch {
            talk.closeSession(session)
            throw .portalFailed("The screen-cast portal failed: \(error).")
        }
    }

    /// The first stream of Start's results: its node, size and kind.
    static func firstStream(of results: OpaquePointer, session: String) throws(ScreenCaptureError) -> ScreenCastPortal {
        guard let streams = PortalVariant.lookup(results, "streams") else {
            throw .portalFailed("The screen-cast portal shared no stream, so there is nothing to cast.")
        }
        defer { g_variant_unref(streams) }
        guard let first = PortalVariant.child(streams, 0), let node = PortalVariant.child(first, 0), let props = PortalVariant.child(first, 1) else {
            throw .portalFailed("The screen-cast portal shared no stream, so there is nothing to cast.")
        }
        defer {
            g_variant_unref(first)
            g_variant_unref(node)
            g_variant_unref(props)
        }
        guard let nodeID = PortalVariant.uint32Value(node) else { throw .portalFailed("The screen-cast portal's stream has no PipeWire node.") }
        var size = PixelSize(width: 1920, height: 1080)
        if let v = PortalVariant.lookup(props, "size") {
            if let (w, h) = PortalVariant.intPair(v), w > 0, h > 0 { size = PixelSize(width: w, height: h) }
            g_variant_unref(v)
        }
        var isWindow = false
        if let v = PortalVariant.lookup(props, "source_type") {
            isWindow = PortalVariant.uint32Value(v) == 2
            g_variant_unref(v)
        }
        return ScreenCastPortal(nodeID: nodeID, size: size, isWindow: isWindow, sessionHandle: session)
    }

    /// A new connection to the PipeWire server that may read this session's stream (a file
    /// descriptor the caller owns; each capturer needs its own).
    public func openRemote() throws(ScreenCaptureError) -> Int32 {
        let talk = try PortalConversation(cancelled: { false })
        defer { talk.finish() }
        return try talk.openPipeWireRemote(session: sessionHandle)
    }

    /// Ends the sharing (the desktop's "sharing your screen" indicator goes away).
    public func close() {
        guard let talk = try? PortalConversation(cancelled: { false }) else { return }
        talk.closeSession(sessionHandle)
        talk.finish()
    }
}

extension ScreenCastPortal {
    /// `open` on a thread of its own (the picker may stay open for minutes); cancelling the
    /// calling task closes the request.
    public static func choose() async throws(ScreenCaptureError) -> ScreenCastPortal {
        let flag = CancelFlag()
        let result: Result<ScreenCastPortal, ScreenCaptureError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: Result { () throws(ScreenCaptureError) in try open(cancelled: { flag.isSet }) })
                }
                thread.name = "castdeck.portal"
                thread.start()
            }
        } onCancel: {
            flag.set()
        }
        return try result.get()
    }
}

/// A flag set from one thread and read from another.
private final class CancelFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
