// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// Whether CastDeck remembers where playback stopped: the GSettings key `remember-positions`
/// (castctl reads the same key). Without the schema, the default (on) for this run.
@MainActor
final class GSettingsPlaybackPreferences: PlaybackPreferences {
    static let key = "remember-positions"
    let settings: Settings?
    private var fallback = true

    init(settings: Settings?) { self.settings = settings }

    var remembersPositions: Bool {
        get { settings?.bool(Self.key) ?? fallback }
        set {
            fallback = newValue
            settings?.set(Self.key, bool: newValue)
        }
    }
}
