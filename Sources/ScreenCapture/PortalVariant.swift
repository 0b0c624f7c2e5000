// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CGio

/// The few GVariant shapes the screen-cast portal speaks, built and read without GLib's
/// variadic constructors (which Swift cannot call). Values built here are floating: the D-Bus
/// call that takes them sinks them.
enum PortalVariant {
    static func string(_ s: String) -> OpaquePointer { g_variant_new_string(s) }
    static func objectPath(_ s: String) -> OpaquePointer { g_variant_new_object_path(s) }
    static func uint32(_ v: UInt32) -> OpaquePointer { g_variant_new_uint32(v) }
    static func bool(_ v: Bool) -> OpaquePointer { g_variant_new_boolean(v ? 1 : 0) }

    /// An `a{sv}` dictionary.
    static func options(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        let type = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(type) }
        let builder = g_variant_builder_new(type)
        defer { g_variant_builder_unref(builder) }
        for (key, value) in entries {
            g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        return g_variant_builder_end(builder)
    }

    /// A tuple of the values, as a method's parameters.
    static func tuple(_ values: [OpaquePointer]) -> OpaquePointer {
        let items: [OpaquePointer?] = values
        return items.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// The `index`th child (a new reference).
    static func child(_ v: OpaquePointer, _ index: Int) -> OpaquePointer? {
        guard g_variant_is_container(v) != 0, index < g_variant_n_children(v) else { return nil }
        return g_variant_get_child_value(v, gsize(index))
    }

    /// The value under `key` in an `a{sv}` (a new reference), or nil.
    static func lookup(_ dict: OpaquePointer, _ key: String) -> OpaquePointer? {
        g_variant_lookup_value(dict, key, nil)
    }

    /// A string or object path's text.
    static func text(_ v: OpaquePointer) -> String? {
        guard g_variant_is_of_type(v, g_variant_type_checked_("s")) != 0 || g_variant_is_of_type(v, g_variant_type_checked_("o")) != 0
        else { return nil }
        return g_variant_get_string(v, nil).map { String(cString: $0) }
    }

    static func uint32Value(_ v: OpaquePointer) -> UInt32? {
        g_variant_is_of_type(v, g_variant_type_checked_("u")) != 0 ? g_variant_get_uint32(v) : nil
    }

    /// A `(ii)` pair, as the portal gives a stream's size.
    static func intPair(_ v: OpaquePointer) -> (Int, Int)? {
        guard g_variant_is_of_type(v, g_variant_type_checked_("(ii)")) != 0, let a = child(v, 0), let b = child(v, 1) else { return nil }
        defer {
            g_variant_unref(a)
            g_variant_unref(b)
        }
        return (Int(g_variant_get_int32(a)), Int(g_variant_get_int32(b)))
    }
}
