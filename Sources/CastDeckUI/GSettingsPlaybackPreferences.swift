// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// Whether CastDeck remembers where playback stopped: the GSettings key `remember-positions`
/// (castctl reads the same key); the devices that get surround sound as it is:
/// `surround-devices`. Without the schema, the defaults (on; none) for this run.
@MainActor
final class GSettingsPlaybackPreferences: PlaybackPreferences {
    static let key = "remember-positions"
    static let surroundKey = "surround-devices"
    let settings: Settings?
    private var fallback = true
    private var surroundFallback: [String] = []

    var surroundDevices: [String] {
        get { settings?.strings(Self.surroundKey) ?? surroundFallback }
        set {
            surroundFallback = newValue
            settings?.set(Self.surroundKey, strings: newValue)
        }
    }

    init(settings: Settings?) { self.settings = settings }

    var remembersPositions: Bool {
        get { settings?.bool(Self.key) ?? fallback }
        set {
            fallback = newValue
            settings?.set(Self.key, bool: newValue)
        }
    }
}
