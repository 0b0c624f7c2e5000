// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// Anything that points at a GObject instance, however Swift imported the C type:
/// derivable types (GtkWidget, GtkWindow, …) come in as `UnsafeMutablePointer<T>`,
/// final types (GtkLabel, GtkScale, AdwToast, …) as `OpaquePointer`, gpointer as raw.
public protocol GObjectRef {
    var raw: UnsafeMutableRawPointer { get }
}
extension UnsafeMutablePointer: GObjectRef {
    @inlinable public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}
extension OpaquePointer: GObjectRef {
    @inlinable public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}
extension UnsafeMutableRawPointer: GObjectRef {
    @inlinable public var raw: UnsafeMutableRawPointer { self }
}

/// The Swift stand-in for GTK_WINDOW(w)/GTK_LABEL(w): the result type comes from the C parameter.
@inlinable public func cast<T>(_ p: some GObjectRef) -> UnsafeMutablePointer<T> {
    UnsafeMutablePointer<T>(OpaquePointer(p.raw))
}
@inlinable public func cast(_ p: some GObjectRef) -> OpaquePointer {
    OpaquePointer(p.raw)
}

extension Bool {
    @inlinable public var gboolean: gboolean { self ? 1 : 0 }
}
extension Int32 {
    @inlinable public var isTrue: Bool { self != 0 }
}

/// A GError turned into a Swift error.
public struct GLibError: Error, CustomStringConvertible, Sendable {
    public let domain: UInt32, code: Int32, message: String
    public var description: String { message }
}

/// Runs `body` with a GError** and throws if it was set.
public func withGError<R>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> R) throws -> R {
    var error: UnsafeMutablePointer<GError>? = nil
    let result = body(&error)
    if let error {
        defer { g_error_free(error) }
        throw GLibError(
            domain: error.pointee.domain, code: error.pointee.code,
            message: String(cString: error.pointee.message))
    }
    return result
}

/// True on the process main thread (where GTK and the MainActor run). Not pthread_self():
/// glibc marks it `const`, so the optimiser may move it across an `await`.
public func isMainThread() -> Bool { cgtk_is_main_thread() != 0 }

/// Writes a line to standard error (Swift 6 forbids touching the C `stderr` global).
public func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
