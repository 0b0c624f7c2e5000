// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GLibInterop

// While the window mirrors the screen or the desktop's sound (AppModel+Mirror.swift) a media
// card shows that instead of any media: the title "Screen" or "Desktop audio", the device as
// the artist, Playing, and Stop (which ends mirroring), as the banner offers.
extension MPRIS {
    /// xesam/mpris metadata of mirroring under way.
    public static func mirrorMetadata(trackID: String, mirroring: AppModel.MirrorState) -> [(String, DBusValue)] {
        [
            ("mpris:trackid", .objectPath(trackID)),
            ("xesam:title", .string(mirroring.title)),
            ("xesam:artist", .strings([mirroring.deviceName])),
        ]
    }

    /// The track key while mirroring: a new track for each device and kind.
    static func mirrorTrackKey(_ m: AppModel.MirrorState) -> String {
        "mirror/\(m.deviceID)/\(m.isScreen ? "screen" : "sound")"
    }
}

extension MPRISService {
    /// Every Player property but Position while mirroring: playing, nothing to pause, seek, skip
    /// or speed up. CanPlay stays true (Play does nothing): playerctl refuses every command, and
    /// GNOME Shell hides the card, of a player that cannot play.
    func mirrorProperties(_ m: AppModel.MirrorState) -> [(String, DBusValue)] {
        [
            ("PlaybackStatus", .string("Playing")),
            ("Rate", .double(1)),
            ("MinimumRate", .double(1)),
            ("MaximumRate", .double(1)),
            ("Metadata", .dictionary(MPRIS.mirrorMetadata(trackID: trackID, mirroring: m))),
            ("Volume", .double(1)),
            ("LoopStatus", .string("None")),
            ("Shuffle", .bool(false)),
            ("CanGoNext", .bool(false)),
            ("CanGoPrevious", .bool(false)),
            ("CanPlay", .bool(true)),
            ("CanPause", .bool(false)),
            ("CanSeek", .bool(false)),
            ("CanControl", .bool(true)),
        ]
    }

    /// While mirroring, Stop ends it and the other transport methods do nothing (the Can*
    /// properties say so); true when the call was taken here.
    func mirrorCall(_ method: String) -> Bool {
        guard model.isMirroring else { return false }
        switch method {
        case "Stop": Task { await model.perform(.stopMirroring) }
        case "Play", "Pause", "PlayPause", "Next", "Previous", "Seek", "SetPosition": break
        default: return false
        }
        return true
    }
}
