// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import GLibInterop

/// Takes widgets out of a shown window a few per main-loop turn instead of all at once.
/// Each widget leaving a window is work for GTK's accessibility layer (its objects leave the
/// accessibility bus, with a signal for each), and a list of a hundred rows or buttons
/// replaced at once held the main loop 20–70 ms (issue 17). The caller hides what it
/// replaces first, so nothing old shows while it goes.
@MainActor
enum Retire {
    static func gradually(_ removals: [@MainActor () -> Void], perTurn: Int) {
        guard !removals.isEmpty else { return }
        var next = 0
        GLibSource.timeout(ms: 1) {
            let end = min(removals.count, next + perTurn)
            for i in next..<end { removals[i]() }
            next = end
            return next < removals.count
        }
    }
}
