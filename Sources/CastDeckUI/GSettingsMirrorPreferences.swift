// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The Cast Screen dialog's last choices: the GSettings keys `mirror-quality` and
/// `mirror-sound`. Without the schema, the model's defaults for this run.
@MainActor
final class GSettingsMirrorPreferences: MirrorPreferences {
    static let qualityKey = "mirror-quality"
    static let soundKey = "mirror-sound"
    let settings: Settings?
    /// What is kept for this run without the schema (the model's defaults).
    private let fallback = MemoryMirrorPreferences()

    init(settings: Settings?) { self.settings = settings }

    var mirrorQuality: String {
        get { settings?.string(Self.qualityKey) ?? fallback.mirrorQuality }
        set {
            fallback.mirrorQuality = newValue
            settings?.set(Self.qualityKey, string: newValue)
        }
    }

    var mirrorSound: Bool {
        get { settings?.bool(Self.soundKey) ?? fallback.mirrorSound }
        set {
            fallback.mirrorSound = newValue
            settings?.set(Self.soundKey, bool: newValue)
        }
    }
}
