// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// Typed access to a GSettings schema. Unlike g_settings_new(), which aborts the process when
/// the schema is not installed, `Settings(schemaID:)` returns nil so the caller can say why.
@MainActor
public final class Settings {
    public let schemaID: String
    nonisolated(unsafe) private let settings: OpaquePointer

    public init?(schemaID: String) {
        guard let source = g_settings_schema_source_get_default(),
            let schema = g_settings_schema_source_lookup(source, schemaID, 1)
        else { return nil }
        g_settings_schema_unref(schema)
        guard let s = g_settings_new(schemaID) else { return nil }
        self.schemaID = schemaID
        self.settings = OpaquePointer(s)
    }

    deinit { g_object_unref(settings.raw) }

    public func int(_ key: String) -> Int { Int(g_settings_get_int(cast(settings), key)) }
    public func set(_ key: String, int value: Int) { _ = g_settings_set_int(cast(settings), key, Int32(value)) }
    public func double(_ key: String) -> Double { g_settings_get_double(cast(settings), key) }
    public func set(_ key: String, double value: Double) { _ = g_settings_set_double(cast(settings), key, value) }
    public func bool(_ key: String) -> Bool { g_settings_get_boolean(cast(settings), key).isTrue }
    public func set(_ key: String, bool value: Bool) { _ = g_settings_set_boolean(cast(settings), key, value.gboolean) }
    public func string(_ key: String) -> String {
        guard let p = g_settings_get_string(cast(settings), key) else { return "" }
        defer { g_free(p) }
        return String(cString: p)
    }
    public func set(_ key: String, string value: String) { _ = g_settings_set_string(cast(settings), key, value) }
    /// A key of type `as`.
    public func strings(_ key: String) -> [String] {
        guard let list = g_settings_get_strv(cast(settings), key) else { return [] }
        defer { g_strfreev(list) }
        var out: [String] = []
        var i = 0
        while let p = list[i] {
            out.append(String(cString: p))
            i += 1
        }
        return out
    }
    public func set(_ key: String, strings value: [String]) {
        var copies = value.map { strdup($0) }
        copies.append(nil)
        defer { for p in copies { free(p) } }
        copies.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                _ = g_settings_set_strv(cast(settings), key, $0)
            }
        }
    }

    /// Calls `handler` when `key` changes, by this program or another (`gsettings set`). GSettings
    /// says so only for keys read at least once.
    @discardableResult
    public func onChanged(_ key: String, _ handler: @escaping @MainActor () -> Void) -> gulong {
        settings.on("changed::" + key, handler)
    }

    /// Writes pending changes to the backend (dconf or the keyfile backend).
    public static func sync() { g_settings_sync() }
}
