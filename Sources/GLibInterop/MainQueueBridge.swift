// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// Makes the GLib main loop drain libdispatch's main queue, so `Task { @MainActor in }`,
/// `await MainActor.run {}` and `DispatchQueue.main.async {}` run inside the GTK loop.
///
/// On Linux the MainActor's executor is the Dispatch main queue, which only `dispatch_main()`
/// (incompatible with GTK) or a CFRunLoop would drain. libdispatch signals an eventfd whenever
/// main-queue work is enqueued; we watch it with a unix-fd GSource and drain on wake-up.
/// Event-driven: no polling, no idle CPU.
public enum MainQueueBridge {
    @MainActor private static var sourceID: guint = 0

    /// Installs the bridge (idempotent). Call on the main thread before running the loop.
    @MainActor public static func install() {
        guard sourceID == 0 else { return }
        let fd = _dispatch_get_main_queue_handle_4CF()
        sourceID = g_unix_fd_add_full(
            G_PRIORITY_DEFAULT, fd, G_IO_IN,
            { fd, _, _ in
                // libdispatch only writes the eventfd; without this read the fd stays readable and
                // the source would spin at 100 % CPU, starving redraws.
                var value: eventfd_t = 0
                _ = eventfd_read(fd, &value)
                _dispatch_main_queue_callback_4CF(nil)
                return 1
            }, nil, nil)
    }

    @MainActor public static var isInstalled: Bool { sourceID != 0 }

    @MainActor public static func uninstall() {
        if sourceID != 0 {
            g_source_remove(sourceID)
            sourceID = 0
        }
    }
}
