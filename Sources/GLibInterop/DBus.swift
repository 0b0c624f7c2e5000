// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

// GDBus (GIO) for Swift: values, a connection, exported objects and owned names. Used by the
// MPRIS adapter; nothing here touches GTK.
//
//   DBusValue        a Swift value with its D-Bus type, to and from GVariant
//   DBusConnection   the session bus (or GApplication's connection), signals
//   DBusObject       interfaces from introspection XML exported at a path; GLib answers
//                    org.freedesktop.DBus.Properties.Get/GetAll/Set through the handler
//   DBusName         a well-known name owned while the value lives

/// A D-Bus value of the types MPRIS needs.
public enum DBusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case double(Double)
    case int32(Int32)
    case int64(Int64)
    case uint32(UInt32)
    case uint64(UInt64)
    case strings([String])
    /// a{sv}; keys in the given order.
    case dictionary([(String, DBusValue)])
    /// A value boxed in a variant ("v").
    indirect case variant(DBusValue)
    case tuple([DBusValue])

    public static func == (a: DBusValue, b: DBusValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)), (.objectPath(let x), .objectPath(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.int32(let x), .int32(let y)): return x == y
        case (.int64(let x), .int64(let y)): return x == y
        case (.uint32(let x), .uint32(let y)): return x == y
        case (.uint64(let x), .uint64(let y)): return x == y
        case (.strings(let x), .strings(let y)): return x == y
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.variant(let x), .variant(let y)): return x == y
        case (.tuple(let x), .tuple(let y)): return x == y
        default: return false
        }
    }

    /// A new floating GVariant (consumed by whatever it is handed to).
    public func gvariant() -> OpaquePointer {
        switch self {
        case .string(let s): return g_variant_new_string(s)
        case .objectPath(let p): return g_variant_new_object_path(p)
        case .bool(let b): return g_variant_new_boolean(b.gboolean)
        case .double(let d): return g_variant_new_double(d)
        case .int32(let i): return g_variant_new_int32(i)
        case .int64(let i): return g_variant_new_int64(gint64(i))
        case .uint32(let i): return g_variant_new_uint32(i)
        case .uint64(let i): return g_variant_new_uint64(guint64(i))
        case .strings(let list):
            var cstrs: [UnsafePointer<CChar>?] = list.map { UnsafePointer(strdup($0)) }
            defer { for p in cstrs { free(UnsafeMutablePointer(mutating: p)) } }
            return cstrs.withUnsafeMutableBufferPointer { g_variant_new_strv($0.baseAddress, gssize(list.count)) }
        case .dictionary(let entries):
            var children: [OpaquePointer?] = entries.map { key, value in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value.gvariant()))
            }
            return children.withUnsafeMutableBufferPointer {
                g_variant_new_array(cgtk_variant_type("{sv}"), $0.baseAddress, gsize(entries.count))
            }
        case .variant(let inner): return g_variant_new_variant(inner.gvariant())
        case .tuple(let items):
            var children: [OpaquePointer?] = items.map { $0.gvariant() }
            return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize(items.count)) }
        }
    }

    /// Reads a GVariant (not consumed). Types outside this enum become nil.
    public init?(_ v: OpaquePointer) {
        let type = String(cString: g_variant_get_type_string(v))
        switch type {
        case "s": self = .string(String(cString: g_variant_get_string(v, nil)))
        case "o": self = .objectPath(String(cString: g_variant_get_string(v, nil)))
        case "b": self = .bool(g_variant_get_boolean(v).isTrue)
        case "d": self = .double(g_variant_get_double(v))
        case "i": self = .int32(g_variant_get_int32(v))
        case "x": self = .int64(Int64(g_variant_get_int64(v)))
        case "u": self = .uint32(g_variant_get_uint32(v))
        case "t": self = .uint64(UInt64(g_variant_get_uint64(v)))
        case "v":
            let inner = g_variant_get_variant(v)!
            defer { g_variant_unref(inner) }
            guard let value = DBusValue(inner) else { return nil }
            self = .variant(value)
        case "as":
            self = .strings(Self.children(v).compactMap { if case .string(let s)? = $0 { s } else { nil } })
        case "a{sv}":
            var entries: [(String, DBusValue)] = []
            for i in 0..<g_variant_n_children(v) {
                let entry = g_variant_get_child_value(v, i)!
                defer { g_variant_unref(entry) }
                let k = g_variant_get_child_value(entry, 0)!, val = g_variant_get_child_value(entry, 1)!
                defer {
                    g_variant_unref(k)
                    g_variant_unref(val)
                }
                if let value = DBusValue(val) { entries.append((String(cString: g_variant_get_string(k, nil)), value)) }
            }
            self = .dictionary(entries)
        default:
            guard type.hasPrefix("(") else { return nil }
            self = .tuple(Self.children(v).map { $0 ?? .tuple([]) })
        }
    }

    private static func children(_ v: OpaquePointer) -> [DBusValue?] {
        (0..<g_variant_n_children(v)).map { i in
            let c = g_variant_get_child_value(v, i)!
            defer { g_variant_unref(c) }
            return DBusValue(c)
        }
    }

    /// The value inside a variant, or the value itself.
    public var unboxed: DBusValue { if case .variant(let v) = self { v.unboxed } else { self } }

    public var doubleValue: Double? {
        switch unboxed {
        case .double(let d): d
        case .int32(let i): Double(i)
        case .int64(let i): Double(i)
        case .uint32(let i): Double(i)
        case .uint64(let i): Double(i)
        default: nil
        }
    }
    public var int64Value: Int64? {
        switch unboxed {
        case .int64(let i): i
        case .int32(let i): Int64(i)
        case .uint32(let i): Int64(i)
        default: nil
        }
    }
    public var boolValue: Bool? {
        if case .bool(let b) = unboxed { b } else { nil }
    }
    public var stringValue: String? {
        switch unboxed {
        case .string(let s), .objectPath(let s): s
        default: nil
        }
    }
}

/// A D-Bus error name and message returned to a caller.
public struct DBusError: Error, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
    public var description: String { "\(name): \(message)" }
    public static func failed(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }
    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }
}

/// What answers calls and property reads on an exported object. Called on the main thread
/// (GDBus dispatches in the main context, which the GTK loop or `DBusConnection.iterate` runs).
@MainActor
public protocol DBusObjectHandler: AnyObject {
    /// A method call; the result is the reply's out arguments (empty for none).
    func call(interface: String, method: String, arguments: [DBusValue], sender: String?) -> Result<[DBusValue], DBusError>
    func property(interface: String, name: String) -> DBusValue?
    func setProperty(interface: String, name: String, value: DBusValue) -> Result<Void, DBusError>
}

/// A GDBusConnection (a reference is held while this lives).
@MainActor
public final class DBusConnection {
    nonisolated(unsafe) public let raw: OpaquePointer

    /// Wraps a connection someone else owns (GApplication's), taking a reference.
    public init(borrowing connection: UnsafeMutableRawPointer) {
        raw = OpaquePointer(g_object_ref(connection))
    }

    /// Connects to the session bus named by DBUS_SESSION_BUS_ADDRESS.
    public static func session() throws -> DBusConnection {
        let c = try withGError { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }
        guard let c else { throw GLibError(domain: 0, code: 0, message: "no session bus") }
        let conn = DBusConnection(borrowing: UnsafeMutableRawPointer(c))
        g_object_unref(UnsafeMutableRawPointer(c))
        return conn
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(raw)) }

    /// The connection's unique name (":1.42").
    public var uniqueName: String? { g_dbus_connection_get_unique_name(raw).map { String(cString: $0) } }

    /// Emits a signal to everyone listening; `arguments` become the signal's tuple.
    public func emit(path: String, interface: String, signal: String, arguments: [DBusValue]) {
        let body = DBusValue.tuple(arguments).gvariant()
        _ = try? withGError { g_dbus_connection_emit_signal(raw, nil, path, interface, signal, body, $0) }
    }

    /// Runs the default main context once (headless tests, where no GTK loop runs).
    public static func iterate(blocking: Bool = false) {
        _ = g_main_context_iteration(nil, blocking.gboolean)
    }
}

/// Interfaces described by introspection XML, exported at one object path.
@MainActor
public final class DBusObject {
    public let path: String
    let connection: DBusConnection
    nonisolated(unsafe) private var node: UnsafeMutablePointer<GDBusNodeInfo>?
    nonisolated(unsafe) private var registrations: [guint] = []
    nonisolated(unsafe) private let vtable: UnsafeMutablePointer<GDBusInterfaceVTable>
    private let box: HandlerBox

    final class HandlerBox {
        weak var handler: (any DBusObjectHandler)?
        init(_ h: any DBusObjectHandler) { handler = h }
    }

    /// Exports every interface in `xml` at `path`. Throws when the XML is invalid or the path
    /// is taken.
    public init(
        connection: DBusConnection, path: String, introspectionXML xml: String,
        handler: any DBusObjectHandler
    ) throws {
        self.connection = connection
        self.path = path
        box = HandlerBox(handler)
        vtable = .allocate(capacity: 1)
        vtable.initialize(to: GDBusInterfaceVTable())
        vtable.pointee.method_call = { _, sender, _, iface, method, params, invocation, data in
            let box = Unmanaged<DBusObject.HandlerBox>.fromOpaque(data!).takeUnretainedValue()
            let interface = String(cString: iface!), name = String(cString: method!)
            let args: [DBusValue]
            if let params, case .tuple(let items)? = DBusValue(params) { args = items } else { args = [] }
            let from = sender.map { String(cString: $0) }
            var reply: Result<[DBusValue], DBusError> = .failure(.failed("CastDeck is shutting down"))
            MainActor.assumeIsolated {
                if let h = box.handler { reply = h.call(interface: interface, method: name, arguments: args, sender: from) }
            }
            switch reply {
            case .success(let out):
                g_dbus_method_invocation_return_value(invocation, DBusValue.tuple(out).gvariant())
            case .failure(let e):
                g_dbus_method_invocation_return_dbus_error(invocation, e.name, e.message)
            }
        }
        vtable.pointee.get_property = { _, _, _, iface, property, error, data in
            let box = Unmanaged<DBusObject.HandlerBox>.fromOpaque(data!).takeUnretainedValue()
            let interface = String(cString: iface!), name = String(cString: property!)
            var value: DBusValue?
            MainActor.assumeIsolated { value = box.handler?.property(interface: interface, name: name) }
            guard let value else {
                g_set_error_literal(
                    error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue),
                    "No such property: \(name)")
                return nil
            }
            return value.gvariant()
        }
        vtable.pointee.set_property = { _, _, _, iface, property, value, error, data in
            let box = Unmanaged<DBusObject.HandlerBox>.fromOpaque(data!).takeUnretainedValue()
            let interface = String(cString: iface!), name = String(cString: property!)
            guard let value, let v = DBusValue(value) else { return 0 }
            var result: Result<Void, DBusError> = .failure(.failed("CastDeck is shutting down"))
            MainActor.assumeIsolated {
                if let h = box.handler { result = h.setProperty(interface: interface, name: name, value: v) }
            }
            if case .failure(let e) = result {
                g_set_error_literal(error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_INVALID_ARGS.rawValue), e.message)
                return 0
            }
            return 1
        }
        node = try withGError { g_dbus_node_info_new_for_xml(xml, $0) }
        guard let node else { throw GLibError(domain: 0, code: 0, message: "empty introspection XML") }
        let data = Unmanaged.passUnretained(box).toOpaque()
        var i = 0
        while let iface = node.pointee.interfaces?[i] {
            do {
                let id = try withGError {
                    g_dbus_connection_register_object(connection.raw, path, iface, vtable, data, nil, $0)
                }
                registrations.append(id)
            } catch {
                unregister()
                throw error
            }
            i += 1
        }
    }

    /// Removes the object from the bus (also done on deinit).
    public func unregister() {
        for id in registrations { g_dbus_connection_unregister_object(connection.raw, id) }
        registrations = []
    }

    deinit {
        for id in registrations { g_dbus_connection_unregister_object(connection.raw, id) }
        if let node { g_dbus_node_info_unref(node) }
        vtable.deallocate()
    }

    /// Emits org.freedesktop.DBus.Properties.PropertiesChanged for `interface`.
    public func propertiesChanged(interface: String, changed: [(String, DBusValue)], invalidated: [String] = []) {
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        connection.emit(
            path: path, interface: "org.freedesktop.DBus.Properties", signal: "PropertiesChanged",
            arguments: [.string(interface), .dictionary(changed), .strings(invalidated)])
    }

    /// Emits a signal of one of this object's interfaces.
    public func emit(interface: String, signal: String, arguments: [DBusValue]) {
        connection.emit(path: path, interface: interface, signal: signal, arguments: arguments)
    }
}

/// Owns a well-known bus name on a connection while this value lives.
@MainActor
public final class DBusName {
    public let name: String
    nonisolated(unsafe) private var id: guint

    /// Asks the bus for `name` (replacing nobody, queued if taken).
    public init(_ name: String, on connection: DBusConnection) {
        self.name = name
        id = g_bus_own_name_on_connection(connection.raw, name, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
    }

    /// Gives the name back to the bus.
    public func release() {
        if id != 0 {
            g_bus_unown_name(id)
            id = 0
        }
    }

    deinit { if id != 0 { g_bus_unown_name(id) } }
}
