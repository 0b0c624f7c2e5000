// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

// Getting files from the user: GtkFileDialog (GTK 4.10+) and files dropped on a widget.
// Both hand Swift plain local paths; GFile, GListModel and GdkFileList stay in here.

/// Carries a completion through a C `gpointer` (retained until the callback runs once).
private final class FilesCallback {
    let done: @MainActor ([String]) -> Void
    init(_ done: @escaping @MainActor ([String]) -> Void) { self.done = done }
}

/// Local paths of the GFiles in a GListModel (items without a local path are skipped).
private func paths(of model: OpaquePointer) -> [String] {
    var out: [String] = []
    for i in 0..<g_list_model_get_n_items(model) {
        guard let item = g_list_model_get_item(model, i) else { continue }
        if let p = g_file_get_path(OpaquePointer(item)) {
            out.append(String(cString: p))
            g_free(p)
        }
        g_object_unref(item)
    }
    return out
}

@MainActor
public enum FileDialog {
    /// Asks for one or more files, offering a filter of `mimeTypes` (and "All files").
    /// `done` gets the chosen local paths, or an empty list when the user cancelled.
    ///
    /// GtkFileChooserNative rather than GtkFileDialog: Debian 12 ships GTK 4.8, and
    /// GtkFileDialog arrived in 4.10. Both go through the desktop portal when there is one.
    public static func openFiles(
        parent: Window?, title: String, filterName: String, mimeTypes: [String], allFilesName: String,
        acceptLabel: String, cancelLabel: String,
        _ done: @escaping @MainActor ([String]) -> Void
    ) {
        let parentPointer: UnsafeMutablePointer<GtkWindow>? = parent.map { cast($0.pointer) }
        guard let native = gtk_file_chooser_native_new(title, parentPointer, GTK_FILE_CHOOSER_ACTION_OPEN, acceptLabel, cancelLabel)
        else { return done([]) }
        let chooser = native
        gtk_file_chooser_set_select_multiple(chooser, 1)
        let media = gtk_file_filter_new()
        gtk_file_filter_set_name(media, filterName)
        for type in mimeTypes { gtk_file_filter_add_mime_type(media, type) }
        let all = gtk_file_filter_new()
        gtk_file_filter_set_name(all, allFilesName)
        gtk_file_filter_add_pattern(all, "*")
        gtk_file_chooser_add_filter(chooser, media)
        gtk_file_chooser_add_filter(chooser, all)
        gtk_file_chooser_set_filter(chooser, media)
        gtk_native_dialog_set_modal(cast(native), 1)
        let data = Unmanaged.passRetained(FilesCallback(done)).toOpaque()
        let trampoline: @convention(c) (gpointer?, Int32, gpointer?) -> Void = { dialog, response, data in
            guard let dialog, let data else { return }
            let callback = Unmanaged<FilesCallback>.fromOpaque(data).takeRetainedValue()
            var chosen: [String] = []
            if response == GTK_RESPONSE_ACCEPT.rawValue, let list = gtk_file_chooser_get_files(OpaquePointer(dialog)) {
                chosen = paths(of: list)
                g_object_unref(UnsafeMutableRawPointer(list))
            }
            gtk_native_dialog_destroy(dialog.assumingMemoryBound(to: GtkNativeDialog.self))
            g_object_unref(dialog)  // the reference gtk_file_chooser_native_new gave
            MainActor.assumeIsolated { callback.done(chosen) }
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(native), "response", unsafeBitCast(trampoline, to: GCallback.self),
            data, nil, GConnectFlags(0))
        gtk_native_dialog_show(cast(native))
    }
}

@MainActor
extension WidgetWrapper {
    /// Accepts files dragged onto this widget (from Files, a browser's downloads, …) and
    /// hands their local paths to `handler`.
    public func onFilesDropped(_ handler: @escaping @MainActor ([String]) -> Void) {
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)
        let data = Unmanaged.passRetained(FilesCallback(handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?, UnsafePointer<GValue>?, Double, Double, gpointer?) -> gboolean = { _, value, _, _, data in
            guard let value, let data, let boxed = g_value_get_boxed(value) else { return 0 }
            let callback = Unmanaged<FilesCallback>.fromOpaque(data).takeUnretainedValue()
            var files: [String] = []
            var node = gdk_file_list_get_files(OpaquePointer(boxed))
            let head = node
            while let n = node {
                if let file = n.pointee.data, let p = g_file_get_path(OpaquePointer(file)) {
                    files.append(String(cString: p))
                    g_free(p)
                }
                node = n.pointee.next
            }
            g_slist_free(head)
            guard !files.isEmpty else { return 0 }
            MainActor.assumeIsolated { callback.done(files) }
            return 1
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(target), "drop", unsafeBitCast(trampoline, to: GCallback.self), data,
            { data, _ in if let data { Unmanaged<FilesCallback>.fromOpaque(data).release() } },
            GConnectFlags(0))
        gtk_widget_add_controller(pointer, cast(target!))
    }
}

@MainActor
extension Application {
    /// GApplication::open: the files of this launch or of a later one (local paths, or URIs
    /// for files without one).
    public func onOpen(_ handler: @escaping @MainActor ([String]) -> Void) {
        let data = Unmanaged.passRetained(FilesCallback(handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?, gpointer?) -> Void = {
            _, files, count, _, data in
            guard let files, let data else { return }
            let callback = Unmanaged<FilesCallback>.fromOpaque(data).takeUnretainedValue()
            var names: [String] = []
            for i in 0..<Int(count) {
                guard let file = files[i] else { continue }
                if let p = g_file_get_path(file) {
                    names.append(String(cString: p))
                    g_free(p)
                } else if let u = g_file_get_uri(file) {
                    names.append(String(cString: u))
                    g_free(u)
                }
            }
            MainActor.assumeIsolated { callback.done(names) }
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(app), "open", unsafeBitCast(trampoline, to: GCallback.self), data,
            { data, _ in if let data { Unmanaged<FilesCallback>.fromOpaque(data).release() } },
            GConnectFlags(0))
    }
}
